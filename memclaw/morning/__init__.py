"""The morning card and what follows from it: review a dream's report, feed trust, evolve SOUL.md.

``card`` picks the newest dream report nobody has reviewed and records the
review; ``actions`` is the one door the card's Confirm / Edit / Forget go
through (the fact layer's feedback, forget everywhere, rewording a line);
``soul`` keeps SOUL.md's "Learned" section from the preference and rule
facts once enough new facts were confirmed, never touching what a person wrote.

May import: dream, entries, forget, llm, workspace, facts, text, gates, config, errors.
"""
