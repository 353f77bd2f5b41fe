"""Snapshots: carry an agent's memory elsewhere as one zip, and bring it back safely.

``export_snapshot`` packs the memory files and a ``manifest.json`` (format,
versions, source agent, "content as of" time, and each file's path, size and
SHA-256) into a deterministic zip. ``read_snapshot`` validates a zip without
trusting it, ``import_snapshot`` previews or applies it atomically, and
``recover`` finishes an import that was interrupted.

Snapshots carry the memory files and, under ``state/`` (format 2), what memory
knows about them (``state``: forgotten fingerprints, evidence, inbox, journal,
provenance, quoted sessions; ``carry`` gathers it). Per-file injection
settings, the index, history and other logs stay behind; the target decides them.

May import: index, workspace, gates, config, errors.
"""

from memclaw.snapshot.apply import ImportResult, import_snapshot, recover
from memclaw.snapshot.diff import FileDiff, plan_diffs
from memclaw.snapshot.export import (
    ExportResult,
    default_filename,
    export_snapshot,
    write_snapshot_file,
)
from memclaw.snapshot.plan import Action, ImportPlan, PlanRow, plan_import
from memclaw.snapshot.reader import (
    ManifestKind,
    Snapshot,
    SnapshotFile,
    load_path,
    read_snapshot,
    read_source,
)

__all__ = [
    "Action",
    "ExportResult",
    "FileDiff",
    "ImportPlan",
    "ImportResult",
    "ManifestKind",
    "PlanRow",
    "Snapshot",
    "SnapshotFile",
    "default_filename",
    "export_snapshot",
    "import_snapshot",
    "load_path",
    "plan_diffs",
    "plan_import",
    "read_snapshot",
    "read_source",
    "recover",
    "write_snapshot_file",
]
