"""A PEP 517 build backend for the agent_hooks_ctk package, standard library only: builds a pure-Python wheel (and
an sdist) from pyproject.toml's [project] table without setuptools or wheel, so no package index is needed."""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "agent_hooks_ctk"


def _read(path, mode="r"):
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
        return f.read()


def _project():
    """The [project] table's scalar members and its scripts (the subset of TOML this pyproject uses)."""
    text = _read(os.path.join(ROOT, "pyproject.toml"))
    table, project, scripts = None, {}, {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        header = re.match(r"^\[(.+)\]$", line)
        if header:
            table = header.group(1)
            continue
        m = re.match(r'^([A-Za-z0-9_.-]+)\s*=\s*"(.*)"$', line)
        if m and table == "project":
            project[m.group(1)] = m.group(2)
        elif m and table == "project.scripts":
            scripts[m.group(1)] = m.group(2)
    return project, scripts


def _dist_name(name):
    return re.sub(r"[-_.]+", "_", name)


def _metadata(project):
    readme = os.path.join(ROOT, "README.md")
    lines = ["Metadata-Version: 2.1", "Name: %s" % project["name"], "Version: %s" % project["version"],
             "Summary: %s" % project.get("description", ""), "Requires-Python: %s" % project.get("requires-python", ""),
             "License: MIT"]
    body = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        body = "\n" + _read(readme)
    return "\n".join(lines) + "\n" + body


def _package_files():
    base = os.path.join(ROOT, PACKAGE)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if f.endswith(".py"):
                full = os.path.join(dirpath, f)
                yield full, os.path.relpath(full, ROOT).replace(os.sep, "/")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def _write_wheel(wheel_directory, files):
    project, _ = _project()
    name = "%s-%s-py3-none-any.whl" % (_dist_name(project["name"]), project["version"])
    record_name = "%s-%s.dist-info/RECORD" % (_dist_name(project["name"]), project["version"])
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for arcname, data in files:
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data, zipfile.ZIP_DEFLATED)
            records.append(_record_line(arcname, data))
        records.append(record_name + ",,")
        info = zipfile.ZipInfo(record_name, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        wheel.writestr(info, "\n".join(records) + "\n", zipfile.ZIP_DEFLATED)
    return name


def _dist_info(project, scripts):
    info = "%s-%s.dist-info" % (_dist_name(project["name"]), project["version"])
    files = [(info + "/METADATA", _metadata(project).encode("utf-8")),
             (info + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: agent-hooks-ctk backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n")]
    if scripts:
        text = "[console_scripts]\n" + "".join("%s = %s\n" % kv for kv in sorted(scripts.items()))
        files.append((info + "/entry_points.txt", text.encode("utf-8")))
    return files


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project, scripts = _project()
    files = [(arc, _read(full, "rb")) for full, arc in _package_files()]
    return _write_wheel(wheel_directory, files + _dist_info(project, scripts))


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    project, scripts = _project()
    pth = ("_%s.pth" % PACKAGE, (ROOT + "\n").encode("utf-8"))
    return _write_wheel(wheel_directory, [pth] + _dist_info(project, scripts))


def build_sdist(sdist_directory, config_settings=None):
    project, _ = _project()
    base = "%s-%s" % (_dist_name(project["name"]), project["version"])
    name = base + ".tar.gz"
    members = ["pyproject.toml", "README.md", "_build/backend.py"] + [arc for _, arc in _package_files()]
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for arc in members:
            full = os.path.join(ROOT, arc)
            if os.path.exists(full):
                tar.add(full, arcname=base + "/" + arc)
        pkg_info = _metadata(project).encode("utf-8")
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(pkg_info)
        tar.addfile(info, io.BytesIO(pkg_info))
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []
