"""One dream over one scope: ``dream_agent`` runs it and returns a ``DreamResult``.

``dreaming`` is the run itself (lock, corrections, candidates, merge or model rewrite),
``result`` what it reports, ``writeback`` the write of MEMORY.md through the loss
guard, ``records`` the diary entry and the structured report it leaves.
"""

from memclaw.dream.run.dreaming import dream_agent, lock_path
from memclaw.dream.run.result import HAND_EDITED, DreamResult, DreamStatus

__all__ = ["HAND_EDITED", "DreamResult", "DreamStatus", "dream_agent", "lock_path"]
