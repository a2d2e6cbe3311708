"""§13.1 declared surfaces: what a kit host states of itself in `describe`."""

import copy

from .emitter import default_postures, every_profile_and_knob
from .jcs import CTK_FAULT_PROVIDER
from .registry import KIT_VERSION, MODES, PROTOCOL, REFERENCE_LAYOUT

SDK = {"lang": "python", "version": KIT_VERSION}  # the claim's sdk field: this kit's release (CLAIMS.md)

# What the kit's reference loop carries (loop.py): every capability a stdio host can carry but incremental_output
# (the --incremental discipline adds it).
LOOP_CAPABILITIES = ["model_calls", "tool_calls", "parallel_tool_calls", "multi_turn", "streaming", "hang_faults",
                     "int64_json", "bigint_json", "raw_interceptor_return", "result_labels_resurfacing",
                     "structured_model_content", "structured_input_content", "message_list_transforms", "mock_faults",
                     "tool_error_values"]
EXPOSURE_BOUND = "none: a segment is released only after the verdict covering it permits"  # §12.1a
BOUNDS = {"max_context_bytes": 5 * 1024 * 1024, "max_depth": 128}  # §12.3 defaults (envelope.py)


def framework_surface(name, version, capabilities, not_declared=None, layout=None, postures=None,
                      buffered_output=True, exposure_bound=None, profiles=None, identity_providers=None, modes=None,
                      bounds=None):
    """§13.1: a host over the kit's emitter. What the emitter gives every such host is declared alike unless narrowed
    (every profile and knob value, the providers jcs-sha256, null and ctk-fault, both modes, buffered output, the
    default postures); what the framework's loop can carry (capabilities, why not the rest, its conversation layout)
    is the framework's own to state. The sdk member is this kit's release."""
    surface = {
        "name": name, "version": version, "protocol": PROTOCOL, "sdk": dict(SDK),
        "capabilities": list(capabilities),
        "buffered_output": buffered_output,
        "profiles": copy.deepcopy(profiles) if profiles is not None else every_profile_and_knob(),
        "identity_providers": list(identity_providers) if identity_providers is not None else ["jcs-sha256", None, CTK_FAULT_PROVIDER],
        "modes": list(modes) if modes is not None else list(MODES),
        "postures": dict(default_postures(), **(postures or {})),
    }
    if exposure_bound is not None:
        surface["exposure_bound"] = exposure_bound
    if layout is not None:
        surface["layout"] = copy.deepcopy(layout)
    if bounds is not None:
        surface["bounds"] = dict(bounds)
    if not_declared:
        surface["not_declared"] = dict(not_declared)
    return surface


def loop_surface(name, version, incremental=False, postures=None, capabilities=None):
    """The surface of a host running the kit's reference loop (`python -m agent_hooks_ctk`): buffered assembly, or with
    `incremental` the §12.1 exception (buffered_output false, incremental_output, exposure bound "none")."""
    caps = list(capabilities if capabilities is not None else LOOP_CAPABILITIES)
    if incremental and "incremental_output" not in caps:
        caps.append("incremental_output")
    return framework_surface(name, version, caps, layout=dict(REFERENCE_LAYOUT), postures=postures,
                             buffered_output=not incremental, exposure_bound=EXPOSURE_BOUND if incremental else None,
                             bounds=BOUNDS)
