"""Score rankings of the labelled queries: precision at 1 and 5, recall at 10.

A rankings file maps each query's id to the names a ranker answered, best
first; the labelled set (queries.json) gives each query the tools that do
what it asks. Every ranker is scored here, by the same definitions:

- precision at k: the share of the first k answers that are relevant (an
  answer list shorter than k counts its missing places as wrong);
- recall at 10: the share of the relevant tools among the first 10 answers;

each averaged over the queries. It prints the scores of each rankings file,
over every query and over each kind of query (keyword, task,
disambiguation, multi), and,
with --tsv FILE, appends `discovery-quality/METRIC/RANKER<TAB>VALUE` lines
for the report, RANKER being the rankings file's name without `.json`.

    python benches/discovery/quality.py QUERIES RANKINGS... [--tsv FILE]
"""

import json
import sys
from pathlib import Path


def scores(queries, rankings):
    p1 = p5 = r10 = 0.0
    for query in queries:
        relevant = set(query["relevant"])
        answered = rankings.get(query["id"], [])
        p1 += sum(1 for name in answered[:1] if name in relevant) / 1
        p5 += sum(1 for name in answered[:5] if name in relevant) / 5
        r10 += sum(1 for name in answered[:10] if name in relevant) / len(relevant)
    n = len(queries)
    return {"p@1": p1 / n, "p@5": p5 / n, "r@10": r10 / n}


def main():
    args = sys.argv[1:]
    tsv = None
    if "--tsv" in args:
        at = args.index("--tsv")
        tsv = args[at + 1]
        del args[at : at + 2]
    if len(args) < 2:
        raise SystemExit("usage: quality.py QUERIES RANKINGS... [--tsv FILE]")
    queries = json.load(open(args[0], encoding="utf-8"))["queries"]
    for path in args[1:]:
        ranked = json.load(open(path, encoding="utf-8"))
        missing = [q["id"] for q in queries if q["id"] not in ranked["rankings"]]
        if missing:
            raise SystemExit(f"{path} has no ranking for {len(missing)} queries, first {missing[0]}")
        score = scores(queries, ranked["rankings"])
        print(
            f"{ranked['ranker']}: precision@1 {score['p@1']:.3f}, "
            f"precision@5 {score['p@5']:.3f}, recall@10 {score['r@10']:.3f} "
            f"({len(queries)} queries)"
        )
        for kind in sorted({q["kind"] for q in queries}):
            of_kind = [q for q in queries if q["kind"] == kind]
            part = scores(of_kind, ranked["rankings"])
            print(
                f"  {kind}: precision@1 {part['p@1']:.3f}, precision@5 {part['p@5']:.3f}, "
                f"recall@10 {part['r@10']:.3f} ({len(of_kind)} queries)"
            )
        if tsv:
            with open(tsv, "a", encoding="utf-8") as out:
                for metric, value in score.items():
                    out.write(f"discovery-quality/{metric}/{Path(path).stem}\t{value:.4f}\n")


if __name__ == "__main__":
    main()
