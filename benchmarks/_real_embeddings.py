"""Keyword against hybrid search with a real embedding model, in one command.

Starts multilingual-e5-small on a free loopback port (``benchmarks.embed_server``,
stopped by its pid however the run ends), then prints keyword against hybrid
recall and seconds on the conversation benchmark (its tuning half ``dev`` and
its held-out half) and, when given a LoCoMo copy, on LoCoMo:

    make bench-real                      # conversations only
    make bench-real LOCOMO=path/to/locomo10.json
    python -m benchmarks._real_embeddings [--locomo PATH]

(Its name starts with ``_`` so that ``make bench`` leaves this slow lane out.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", default="", help="locomo10.json or its folder (optional)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    from benchmarks.conversation_recall import compare_hybrid
    from benchmarks.embed_server import serving
    from benchmarks.locomo_recall import compare_hybrid as locomo_hybrid

    locomo = Path(args.locomo) if args.locomo else None
    if locomo is not None and not locomo.exists():
        raise SystemExit(f"no LoCoMo data at {locomo}")
    with serving() as url:
        print(f"multilingual-e5-small at {url}", flush=True)
        compare_hybrid(("dev", "heldout"), url)
        if locomo is not None:
            locomo_hybrid(locomo, url)


if __name__ == "__main__":
    main()
