"""Extraction: turn a finished conversation into daily notes, PROFILE.md and MEMORY.md lines.

``pipeline`` runs one extraction (gates, cooldown, lock, write, log); ``model``
asks an OpenAI-compatible model with the prompts in ``prompts``; ``offline`` is
the rule engine used when no model is configured. ``transcripts`` reads
conversations from files, ``state`` keeps the cooldown and the per-conversation
lock, ``result`` holds what a run plans and reports, and ``forgotten`` keeps
hashed fingerprints of what a person asked to forget, so that it is never
learned again.

May import: index, prompt, workspace, llm, text, gates, config, errors.
"""
