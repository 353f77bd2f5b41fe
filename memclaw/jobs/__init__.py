"""Batch and scheduled work: one runner for jobs over many agents, and the system crontab.

``runner`` runs nightly jobs (dream, consolidate, reindex, any ``Work``) over
(agent, owner) units: ``local`` on threads with time limits and retries,
``ray_executor`` as Ray tasks (the only importer of ray), ``--shard`` splits;
``batch`` picks the agents and targets; ``crontab`` installs and
removes memclaw's lines in the user's crontab (``memclaw.schedule`` says when
an expression next fires).

May import: dream, extract, entries, index, workspace, llm, config, errors.
"""
