"""Fails when a crate's rustdoc shows two public items of one name.

Each item of the facade has one public path (the runtime's modules are
private and its build-time layers hidden); two items sharing a name, such as
two `Annotations`, make a reader and the compiler's messages guess which is
meant. Reads rustdoc's `all.html` of each crate given.
"""

import collections
import re
import sys

failed = False
for page in sys.argv[1:]:
    with open(page, encoding="utf-8") as f:
        html = f.read()
    paths = re.findall(r'<li><a href="[^"]+">([^<]+)</a></li>', html)
    if not paths:
        print(f"CI: {page} lists no items; has rustdoc's layout changed?", file=sys.stderr)
        sys.exit(1)
    by_name = collections.defaultdict(list)
    for path in paths:
        by_name[path.split("::")[-1]].append(path)
    for name, found in sorted(by_name.items()):
        if len(found) > 1:
            failed = True
            print(f"CI: {page}: {len(found)} public items are named `{name}`: {', '.join(found)}; rename one", file=sys.stderr)
    if not failed:
        print(f"{page}: {len(paths)} public items, each name once")
sys.exit(1 if failed else 0)
