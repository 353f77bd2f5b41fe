"""Where the facts on a search's candidates live, read from what the index already holds.

The index keeps no table of facts: one row per place, with the statement again and
two indexes, was larger than the text itself. The trust signal needs two things,
and only for facts someone gave feedback on (few): the facts on a candidate's
lines, and every place such a fact lives. Both come from the index's own rows,
projected exactly as ``facts.project`` projects a file:

* a block's lines are projected from its stored text (a list item is one line,
  so a block holds its statements whole);
* a fact's other places are the blocks holding every word of its statement,
  found through the full-text index and checked by projecting them the same way.

Memory entries are the exception: an entry's statement is the whole entry, which
may span several blocks, so the few entry files of a scope are read whole.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from memclaw.facts.model import Kind, Place
from memclaw.facts.project import kind_of, project_file, project_text, scope_prefix
from memclaw.index.storage.packs import FILE_COLUMNS, FILE_OF, FileRow, Reader
from memclaw.text.tokenize import parse_query
from memclaw.workspace.entries import ENTRIES_DIR
from memclaw.workspace.paths import META_DIR
from memclaw.workspace.safeguards import provenance

if TYPE_CHECKING:
    from memclaw.workspace.agent import Agent

# The blocks holding every word of a statement (``?``: the MATCH expression), with their file.
_HOLDING = f"""
SELECT t.rowid, {FILE_COLUMNS}, f.mtime_ns FROM blocks_fts AS t
JOIN files AS f ON f.id = {FILE_OF.format("t.rowid")}
WHERE blocks_fts MATCH ?
"""
_FILES_UNDER = "SELECT path FROM files WHERE path > ? AND path < ?"


class Places:
    """Fact places of one index, for one search (file projections are kept meanwhile)."""

    def __init__(self, conn: sqlite3.Connection, agent: Agent) -> None:
        self.conn = conn
        self.agent = agent
        self._entries: dict[str, list[Place]] = {}
        self._model_lines: dict[str, frozenset[str]] = {}
        self._blocks = Reader(conn)

    def on_block(self, rel: str, line: int, end_line: int, text: str) -> list[Place]:
        """The facts stated on lines ``line``..``end_line`` of ``rel`` (the block ``text``)."""
        kind = kind_of(rel)
        if kind is None:
            return []
        if kind is Kind.ENTRY:
            return [p for p in self._entry_file(rel) if line <= p.line <= end_line]
        return self._project_block(rel, line, text, None)

    def everywhere(self, seen: Place) -> list[Place]:
        """Every place the fact of ``seen`` (one of its places) lives in this index."""
        found: list[Place] = []
        query = parse_query(seen.statement)
        if query.empty:  # no word to look it up by: the place in hand is all we know
            return [seen]
        match = " AND ".join(term.fts() for term in query.terms)
        for row in self.conn.execute(_HOLDING, (match,)).fetchall():
            file = FileRow(*row[1:7])
            if kind_of(file.path) in (None, Kind.ENTRY):
                continue
            block = self._blocks.block(file, int(row[0]))
            if block is not None:
                placed = self._project_block(file.path, block.line, block.text, int(row[7]))
                found += [p for p in placed if p.fact == seen.fact]
        folder = scope_prefix(seen.path) + ENTRIES_DIR + "/"
        for (rel,) in self.conn.execute(_FILES_UNDER, (folder, folder[:-1] + "0")):
            if kind_of(rel) is Kind.ENTRY and scope_prefix(rel) == scope_prefix(seen.path):
                found += [p for p in self._entry_file(rel) if p.fact == seen.fact]
        return found or [seen]

    def _project_block(self, rel: str, line: int, text: str, mtime_ns: int | None) -> list[Place]:
        kind = kind_of(rel)
        model_lines: frozenset[str] = frozenset()
        if kind in (Kind.PROFILE, Kind.MEMORY):
            model_lines = self._model_lines_of(rel)
        places = []
        for p in project_text(rel, text, model_lines=model_lines):
            day = p.day
            if kind in (Kind.PROFILE, Kind.MEMORY) and mtime_ns is not None:
                # Such a line carries no date: the file's last change is the latest it can
                # have been written (as ``facts.project.project_file`` dates it).
                day = datetime.fromtimestamp(mtime_ns / 1e9).date()
            places.append(replace(p, line=line + p.line - 1, day=day))
        return places

    def _model_lines_of(self, rel: str) -> frozenset[str]:
        if rel not in self._model_lines:
            record = provenance.load_from(self.agent.path / META_DIR, rel)
            self._model_lines[rel] = frozenset(record.lines)
        return self._model_lines[rel]

    def _entry_file(self, rel: str) -> list[Place]:
        if rel not in self._entries:
            try:
                self._entries[rel] = project_file(self.agent, rel)
            except OSError:
                self._entries[rel] = []
        return self._entries[rel]
