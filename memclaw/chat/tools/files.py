"""The file tools: list, read, write, edit and search a workspace's markdown files.

They run the same library functions as ``memclaw files``, so the same rules hold:
markdown files only, no absolute paths or ``..``, secrets refused, ceilings applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memclaw.chat.tools.base import ScopedTools, arg, need, short
from memclaw.errors import UsageError
from memclaw.text.plural import plural
from memclaw.workspace.safeguards.provenance import Author
from memclaw.workspace.scope import Scope

if TYPE_CHECKING:
    from memclaw.chat.writes import Screened

MAX_READ_CHARS = 20000


class FileTools(ScopedTools):
    """The ``memory_files_*`` tools."""

    def _files_list(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import list_files

        prefix = arg(args, "prefix") or ""
        listing = list_files(self.agent, prefix)
        files = listing["files"]
        personal = self.scope.prefix
        if personal:
            for info in self.scope.list_files():
                name = personal + info.name
                if name.startswith(prefix):
                    files.append({"name": name, "size": info.size, "enabled": info.enabled})
        return {"count": len(files), "files": files}, f"→ {plural(len(files), 'file')}", None

    def _files_read(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import read_file

        name = self.check_name(need(args, "filename"))
        found = read_file(self.agent, name)
        content = found["content"]
        if len(content) > MAX_READ_CHARS:
            found["content"] = content[:MAX_READ_CHARS]
            found["note"] = f"cut at {MAX_READ_CHARS} of {len(content)} characters"
        return found, f"{name} → {len(content):,} chars", None

    def _files_write(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import write_file

        content = arg(args, "content") or ""
        name = self.write_name(need(args, "filename"), content)
        current = self.agent.read(name)
        self._refuse_forgotten(content, keep=current)
        screened = self._screen(name, current, content)
        if screened.text != content or screened.corrected:
            return self._write_screened(name, current, screened)
        # Weighed against ``current``: a write the file took meanwhile stays.
        result = write_file(self.agent, name, content, Author.MODEL, base=current)
        verb = "created" if result["created"] else "rewrote"
        operation = {"op": "file_write", "file": name, "created": result["created"]}
        if result["moved_to_overflow"]:
            operation["moved_to_overflow"] = result["moved_to_overflow"]
        return result, f"{name} → {verb}, {result['chars']:,} chars", operation

    def _files_edit(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.workspace.files import edit_file

        new_text = arg(args, "new_text") or ""
        name = self.write_name(need(args, "filename"), new_text)
        old_text = need(args, "old_text")
        self._refuse_forgotten(new_text, keep=old_text)
        replace_all = bool(arg(args, "replace_all", bool, False))
        current = self.agent.read(name)
        count = current.count(old_text)
        if count == 1 or (count > 1 and replace_all):
            proposed = current.replace(old_text, new_text, -1 if replace_all else 1)
            screened = self._screen(name, current, proposed)
            if screened.text != proposed or screened.corrected:
                return self._write_screened(name, current, screened)
        # Not found or ambiguous: edit_file says so, under the lock.
        result = edit_file(self.agent, name, old_text, new_text, replace_all, Author.MODEL)
        count = result["replacements"]
        operation = {"op": "file_edit", "file": name, "replacements": count}
        if result["moved_to_overflow"]:
            operation["moved_to_overflow"] = result["moved_to_overflow"]
        return result, f"{name} → {count} replacement(s)", operation

    def _screen(self, name: str, current: str, new: str) -> Screened:
        """A model's write to PROFILE.md or MEMORY.md, weighed as extraction weighs one."""
        from memclaw.chat.writes import screen

        return screen(
            self.scope,
            name,
            current,
            new,
            said=self.said,
            session=self.session_id,
            judge=self.judge,
        )

    def _write_screened(self, name: str, current: str, screened: Screened) -> tuple[Any, str, Any]:
        from memclaw.chat.writes import write_screened

        return write_screened(self.scope, name, current, screened, self.session_id)

    def _refuse_forgotten(self, text: str, *, keep: str) -> None:
        """A model may not write back what the person asked to forget (`memclaw forget`)."""
        from memclaw.extract.forgotten import forgotten_checker, without_forgotten

        for scope in (self.scope, Scope(self.agent)):
            if without_forgotten(text, forgotten_checker(scope), keep=keep)[1]:
                raise UsageError(
                    "refused: the text restates something the person asked to forget; "
                    "leave that out and write the rest"
                )

    def _files_search(self, args: dict[str, Any]) -> tuple[Any, str, Any]:
        from memclaw.index import search

        query = need(args, "query")
        limit = min(max(int(arg(args, "limit", int, 5)), 1), 20)
        hits = search(
            self.agent.workspace, query, agents=[self.agent.id], owner=self.owner, limit=limit
        )
        rows = self._hit_rows(hits)
        return {"hits": rows}, f'"{short(query)}" → {plural(len(rows), "hit")}', None
