"""Batch and scheduled work: one runner for jobs over many agents, and the system crontab.

``batch`` runs a job (dream, consolidate) over many (agent, owner) units in
parallel, one failure never stopping the others; ``crontab`` installs and
removes memclaw's lines in the user's crontab (``memclaw.schedule`` says when
an expression next fires).

May import: dream, extract, entries, index, workspace, llm, config, errors.
"""
