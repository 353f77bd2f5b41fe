"""Batch and scheduled work: one runner for jobs over many agents, and the system crontab.

``batch`` runs a job (dream, consolidate) over many (agent, owner) units in
parallel, one failure never stopping the others; ``schedule`` evaluates cron
expressions (croniter); ``crontab`` installs and removes memclaw's lines in
the user's crontab.

May import: dream, extract, entries, index, workspace, llm, config, errors.
"""
