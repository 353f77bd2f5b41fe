"""Doctor: checks the set-up end to end and says what to fix, one line per check.

``diagnose`` looks at the root, the settings files, the model and embeddings
endpoints, the tokenizer, the crontab and cron daemon, every index and the
secrets on disk; ``apply_fix`` carries out the few fixes that are safe.

May import: jobs, review, index, prompt, workspace, llm, config, schedule, errors.
"""

from __future__ import annotations

from memclaw.doctor.checks import diagnose, env_only_model_settings, shell_only_warning
from memclaw.doctor.fix import apply_fix, write_user_settings
from memclaw.doctor.report import Check, Diagnosis, Fix, Status

__all__ = [
    "Check",
    "Diagnosis",
    "Fix",
    "Status",
    "apply_fix",
    "diagnose",
    "env_only_model_settings",
    "shell_only_warning",
    "write_user_settings",
]
