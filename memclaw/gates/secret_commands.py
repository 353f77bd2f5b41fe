"""Credentials handed to a program: password arguments and environment variables set by tools.

* Programs that take a password as an argument: ``sshpass -p``, ``docker login -p`` (podman,
  helm registry, oras ...), ``mongosh -p``, ``redis-cli -a``, ``htpasswd -b file user pass``
  and ``mysql -p'...'`` with a quoted password (the unquoted form is in secret_prose). Only
  after the program's name: ``-p`` is a port for ssh, psql and docker run.
* Variables set by a tool rather than by ``NAME=value``: Windows ``setx NAME value``,
  PowerShell's ``[Environment]::SetEnvironmentVariable("NAME", "value")`` and Kubernetes
  ``- name: NAME`` / ``value: ...`` pairs. The name decides as it does for assignments.

A value that is a variable, a substitution or a placeholder (``$TOKEN``, ``%KEY%``,
``${{ secrets.X }}``) names a secret kept elsewhere and is not flagged.
"""

from __future__ import annotations

import re

from memclaw.gates.lazy_re import LazyPattern
from memclaw.gates.secret_assignments import secret_name_kind
from memclaw.gates.secret_values import Candidate, is_non_value, is_placeholder

__all__ = ["command_candidates"]

# One shell argument: double-quoted, single-quoted or bare. Only the inside is redacted.
_ARG = r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)'|(?P<bare>[^\s\"'`;|&<>]+))"
_END = r"(?=[ \t]|$|\n|[;|&])"


def _pattern(body: str) -> LazyPattern:
    return LazyPattern(body + _ARG + _END, re.M)


# (pattern, hint that must occur in the lower-cased text for the pattern to be tried)
_PASSWORD_ARGS: tuple[tuple[LazyPattern, str], ...] = (
    (_pattern(r"\bsshpass\b[^\n]*?[ \t]-p[ \t]*"), "sshpass"),
    (
        _pattern(
            r"\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|oc)\b[^\n]*?"
            r"[ \t]login\b[^\n]*?[ \t](?:-p|--password)(?:[ \t]+|=)"
        ),
        "login",
    ),
    (
        _pattern(
            r"\bmongo(?:sh|dump|restore|export|import|stat|top)?\b[^\n]*?[ \t]"
            r"(?:-p|--password)(?:[ \t]+|=)"
        ),
        "mongo",
    ),
    (_pattern(r"\bredis-cli\b[^\n]*?[ \t](?:-a|--pass)[ \t]+"), "redis-cli"),
    # htpasswd -b[c] FILE USER PASSWORD, htpasswd -nb USER PASSWORD: the password comes last.
    (
        _pattern(r"\bhtpasswd(?:[ \t]+-[A-Za-z]*b[A-Za-z]*)(?:[ \t]+[^\s\-]\S*){1,2}[ \t]+"),
        "htpasswd",
    ),
    (_pattern(r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?[ \t]-p(?=[\"'])"), "mysql"),
)

# Tools that set a named variable; the name must be a secret's (DB_PASSWORD, API_TOKEN).
_NAMED_SETTERS: tuple[tuple[LazyPattern, str], ...] = (
    (
        _pattern(r"\bsetx(?:[ \t]+/[A-Za-z])*[ \t]+[\"']?(?P<name>[A-Za-z_][\w.\-]*)[\"']?[ \t]+"),
        "setx",
    ),
    (
        LazyPattern(
            r"SetEnvironmentVariable\([ \t]*[\"'](?P<name>[^\"'\n]+)[\"'][ \t]*,[ \t]*"
            r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)')",
            re.I,
        ),
        "setenvironmentvariable",
    ),
    (
        _pattern(
            r"(?<![\w-])name:[ \t]*[\"']?(?P<name>[A-Za-z_][\w.\-]*)[\"']?[ \t]*\r?\n"
            r"[ \t]*(?:-[ \t]+)?value:[ \t]*"
        ),
        "value:",
    ),
)


def _value_span(m: re.Match[str]) -> tuple[int, int] | None:
    for group in ("dq", "sq", "bare"):
        if group in m.re.groupindex and m.group(group) is not None:
            value = m.group(group)
            if (
                len(value) < 3
                or value.startswith(("-", "$", "%", "<"))
                or is_placeholder(value)
                or is_non_value(value)
            ):
                return None
            return m.span(group)
    return None


def command_candidates(text: str, lower: str) -> list[Candidate]:
    out: list[Candidate] = []
    for pattern, hint in _PASSWORD_ARGS:
        if hint not in lower:
            continue
        for m in pattern.finditer(text):
            span = _value_span(m)
            if span is not None:
                out.append((*span, "password", 65))
    for pattern, hint in _NAMED_SETTERS:
        if hint not in lower:
            continue
        for m in pattern.finditer(text):
            kind = secret_name_kind(m.group("name"))
            span = _value_span(m) if kind else None
            if span is not None:
                out.append((*span, kind, 55))
    return out
