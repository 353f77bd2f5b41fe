"""The memory browser: a full-screen terminal view of one agent's memory (``memclaw browse``).

``source`` gathers what the panes show (files, search hits, facts with their
trust, the contradiction inbox, the timeline) and carries out what the keys
ask for (confirm, reject, forget, resolve), through the same library calls as
the commands. ``app`` is the Textual application over it. Textual is an
optional extra (``memclaw[browse]``); nothing else imports this package.

May import: every capability, index, workspace, config, errors, text.
"""
