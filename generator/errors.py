"""Typed errors of the generator.

Every error the product raises on bad input is a subclass of ``KgenError`` and carries a one-line
message that names the bad value and, where it helps, what would be accepted. The CLI prints
``kgen: error: <message>`` and exits 2 for these; it never shows a traceback for them.
"""


def first_line(e: BaseException) -> str:
    """An exception's message in one line (its first), else its type's name: how the product quotes an
    error raised by code it calls (a user's model, PyTorch) in its own one-line errors."""
    lines = str(e).strip().splitlines()
    return lines[0] if lines else type(e).__name__


class KgenError(Exception):
    """Base of all errors raised by the generator on bad input or unsupported requests."""


class FormatError(KgenError, ValueError):
    """A memory format tag, stride list or descriptor is malformed or does not fit the dims."""


class ProblemError(KgenError, ValueError):
    """A problem description (dims string, batch line, attribute) is malformed."""


class UnsupportedError(KgenError):
    """A well-formed request the product cannot serve (dtype/backend/feature combination)."""


class CompileError(KgenError):
    """iree-compile rejected generated MLIR, or the compiler is missing."""


class ArtifactError(KgenError):
    """A compiled artifact is missing, corrupt or stale."""


class InputError(KgenError, ValueError):
    """Run-time input is wrong: array shape, dtype or length, or an unreadable file."""


class RunError(KgenError, RuntimeError):
    """The runtime failed to load or invoke a compiled module."""


class ClusterError(KgenError):
    """A farm cannot take the work: its address does not answer, a node runs other code, or no node
    of the CPU kind a unit needs is there (`generator.scale`)."""


class InternalError(Exception):
    """A bug in kgen itself, not bad input: the CLI says so and exits 3 (not 2, which means bad input).
    Deliberately not a ``KgenError``, so that no handler for user errors swallows it."""


class TemplateError(InternalError):
    """A template failed to render. The message names the template and line and shows the template
    source around it with line numbers (as iree-turbine's loader shows the MLIR it built)."""
