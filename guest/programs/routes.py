#!/usr/bin/env python3
"""routes.cpp's input and, independently of it, its expected output.

    python3 guest/programs/routes.py            # writes routes.input and routes.expected here

The road map is random but fixed (seeded). Weights are redrawn until every query has one
shortest route (so that the route printed is determined) and the average is no rounding tie.
The expected output comes from this file's own Dijkstra and formatting, not from the guest.
"""
import heapq
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "dor", "sa", "tu", "bel", "an", "or", "is", "mar", "fen", "gal", "hu"]


def towns(rng, n):
    names = set()
    while len(names) < n:
        names.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize())
    return sorted(names)


def build(seed):
    rng = random.Random(seed)
    names = towns(rng, 40)
    island = names[-3:]  # a component no query from the mainland reaches
    main = names[:-3]
    rng.shuffle(main)
    roads = []
    for i in range(1, len(main)):  # a spanning tree, then more roads
        roads.append((main[i], main[rng.randrange(i)]))
    pairs = set(frozenset(r) for r in roads)
    while len(roads) < 3 * len(main):
        a, b = rng.sample(main, 2)
        if frozenset((a, b)) not in pairs:
            pairs.add(frozenset((a, b)))
            roads.append((a, b))
    roads += [(island[0], island[1]), (island[1], island[2])]
    queries = [tuple(rng.sample(main, 2)) for _ in range(14)]
    queries += [(main[0], island[0]), (island[2], island[0]), (main[1], "Atlantis"), ("Nowhere", main[2])]
    return rng, roads, queries


def dijkstra(adj, src):
    dist, count, prev = {src: 0}, {src: 1}, {src: None}
    heap = [(0, src)]
    done = set()
    while heap:
        d, t = heapq.heappop(heap)
        if t in done:
            continue
        done.add(t)
        for u, km in adj[t]:
            nd = d + km
            if u not in dist or nd < dist[u]:
                dist[u], count[u], prev[u] = nd, count[t], t
                heapq.heappush(heap, (nd, u))
            elif nd == dist[u]:
                count[u] += count[t]
    return dist, count, prev


def expected(roads, weights, queries):
    adj = {}
    for (a, b), km in zip(roads, weights):
        adj.setdefault(a, []).append((b, km))
        adj.setdefault(b, []).append((a, km))
    lines, found, unique = [], [], True
    for a, b in queries:
        head = f"{a} -> {b}: "
        if a not in adj or b not in adj:
            lines.append(head + f"unknown town {b if a in adj else a}")
            continue
        dist, count, prev = dijkstra(adj, a)
        if b not in dist:
            lines.append(head + "no route")
            continue
        unique &= count[b] == 1
        path = [b]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])
        path.reverse()
        roads = len(path) - 1
        lines.append(head + f"{dist[b]} km, {roads} {'road' if roads == 1 else 'roads'}: " + ", ".join(path))
        found.append(dist[b])
    lines.append("busiest towns:")
    for t in sorted(adj, key=lambda t: (-len(adj[t]), t))[:5]:
        lines.append(f"  {t:<12}{len(adj[t]):>3} roads")
    by = {}
    for t in adj:
        by[len(adj[t])] = by.get(len(adj[t]), 0) + 1
    lines.append("towns by road count:" + "".join(f" {k}x{v}" for k, v in sorted(by.items())))
    total = sum(found)
    tie = (total * 10) % len(found) * 2 == len(found)  # the average ends in exactly 5 hundredths
    lines.append(f"{len(found)} routes, {total} km in all, {total / len(found):.1f} km on average")
    lines.append("2 lines ignored")
    return "\n".join(lines) + "\n", unique and not tie


def main():
    rng, roads, queries = build(20261201)
    while True:
        weights = [rng.randint(5, 900) for _ in roads]
        out, ok = expected(roads, weights, queries)
        if ok:
            break
    text = ["# routes.cpp's input, written by routes.py: roads, then queries"]
    text += [f"road {a} {b} {km}" for (a, b), km in zip(roads, weights)]
    text += ["road Nowhere", "this line is no command"]  # the two ignored lines
    text += [f"route {a} {b}" for a, b in queries]
    with open(os.path.join(HERE, "routes.input"), "w") as f:
        f.write("\n".join(text) + "\n")
    with open(os.path.join(HERE, "routes.expected"), "w") as f:
        f.write(out)


if __name__ == "__main__":
    main()
