// Preloaded (`node --import`) into every process bench/startup.ts starts: at exit, writes that process's own
// CPU time (user + system, the whole process life) to $CTK_BENCH_CPU_FILE. Other processes on the machine
// do not count in it, so it is the steadier figure on a loaded machine; wall time is measured by the parent.
import { writeFileSync } from 'node:fs';

const file = process.env.CTK_BENCH_CPU_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ cpu_us: user + system }));
  });
}
