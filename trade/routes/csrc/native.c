/* The mapper's two innermost loops in C (pip install builds this where a C compiler is, and
 * trade/routes/native.py loads it with ctypes; the numpy and scipy code in paths.py and legs.py
 * computes the same numbers, to the bit, when it is not built). Plain C99 over the mapper's own
 * int64 / float64 arrays; no Python API.
 *
 * ft_search: the searches of T-6 / T-6a / T-6c. Every edge adds at least one unit of the metric's
 * leading count (a parsec, or a jump for T-6c) and the lower counts never carry into it
 * (paths.Metric), so a path's level, weight / unit, grows by the edge's whole units along it. A
 * node is final once every lower level is done: its in-edges all come from lower levels. So the
 * levels are a bucket queue (Dial's algorithm), in a ring as long as the longest edge, and no
 * heap is needed: the same exact integer weights as Dijkstra's.
 *
 * ft_tree_flows: T-7 on one graph's search rows. A pair's path is its branch of the source's
 * tree, each node's parent the first in-neighbour in T-6 tie order on a best path (as
 * paths.best_parents); every edge adds exactly one jump, so going up the tree level by level in
 * jumps, deepest first, each node hands its subtree's trade to its parent once (as
 * legs.add_tree_flows).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* The sha256 of this file's text, defined by the build (trade/routes/native_build.py):
 * native.py refuses a library whose digest is not that of the native.c beside it (stale). */
#ifndef FT_SOURCE_DIGEST
#error "FT_SOURCE_DIGEST is not defined: build with pip install (setup.py)"
#endif

const char *ft_source_digest(void)
{
    return FT_SOURCE_DIGEST;
}

/* Rows ``k`` of ``out`` (k x n, row-major) get the path weights from node ``starts[r]``: the
 * least weight of a path no heavier than ``limit``, else +inf. The graph is CSR (``indptr``,
 * ``indices``, ``weight``: exact integers). Returns 0, or -1 when memory runs out. */
int ft_search(int64_t n, const int64_t *indptr, const int64_t *indices, const int64_t *weight,
              int64_t unit, int64_t k, const int64_t *starts, int64_t limit, double *out)
{
    int64_t m = indptr[n], ring = 2;
    for (int64_t e = 0; e < m; e++)
        if (weight[e] / unit + 1 > ring)
            ring = weight[e] / unit + 1;
    int64_t *step = malloc((size_t)(m + 1) * sizeof *step);  /* each edge's whole units */
    int64_t *dist = malloc((size_t)(n + 1) * sizeof *dist);  /* best weight so far */
    int64_t *level = malloc((size_t)(n + 1) * sizeof *level); /* ... and its level */
    int64_t *head = malloc((size_t)ring * sizeof *head);      /* each bucket's last entry */
    int64_t *node = malloc((size_t)(m + 1) * sizeof *node);   /* entries: a node ... */
    int64_t *next = malloc((size_t)(m + 1) * sizeof *next);   /* ... and the bucket's next */
    int status = -1;
    if (!step || !dist || !level || !head || !node || !next)
        goto done;
    for (int64_t e = 0; e < m; e++)
        step[e] = weight[e] / unit;
    for (int64_t i = 0; i < n; i++)
        dist[i] = INT64_MAX;
    for (int64_t r = 0; r < k; r++) {
        double *row = out + r * n;
        for (int64_t i = 0; i < n; i++)
            row[i] = INFINITY;
        for (int64_t b = 0; b < ring; b++)
            head[b] = -1;
        int64_t s = starts[r], used = 1, waiting = 1;
        dist[s] = 0;
        level[s] = 0;
        node[0] = s;
        next[0] = -1;
        head[0] = 0;
        for (int64_t at = 0; waiting; at++) {
            int64_t entry = head[at % ring];
            head[at % ring] = -1;
            for (; entry >= 0; entry = next[entry]) {
                waiting--;
                int64_t u = node[entry];
                if (row[u] != INFINITY)
                    continue; /* settled already, from the lower level it moved to */
                int64_t du = dist[u];
                row[u] = (double)du;
                for (int64_t e = indptr[u]; e < indptr[u + 1]; e++) {
                    int64_t v = indices[e], dv = du + weight[e];
                    if (dv > limit || dv >= dist[v])
                        continue;
                    int64_t lv = at + step[e];
                    int queued = dist[v] != INT64_MAX && level[v] == lv;
                    dist[v] = dv;
                    level[v] = lv;
                    if (queued)
                        continue; /* a better weight on the same level: its entry stands */
                    node[used] = v;
                    next[used] = head[lv % ring];
                    head[lv % ring] = used++;
                    waiting++;
                }
            }
        }
        for (int64_t i = 0; i < used; i++)
            dist[node[i]] = INT64_MAX; /* only what this row touched */
    }
    status = 0;
done:
    free(step);
    free(dist);
    free(level);
    free(head);
    free(node);
    free(next);
    return status;
}

/* Add to ``flow`` (one slot per in-edge entry) the trade ``amount[i]`` of each pair ending at
 * flat place ``at[i]`` (row * n + node) of the search rows ``dist`` (k x n). ``pad_u``,
 * ``pad_w`` and ``pad_e`` (n x width) list each node's in-neighbours in tie order, their
 * weights (+inf in the padding) and their in-edge entries. A weight's jumps are
 * (weight / jump) % per, with ``per`` the leading unit / jump (0: the jumps lead). ``acc``
 * (k x n) is all zeros on entry and on return. Returns 0; -1 when memory runs out; -2 when a
 * reached node has no parent on a best path (the weights are not a search's); -3 when a path
 * has 1,000 jumps or more. */
int ft_tree_flows(int64_t n, int64_t k, const double *dist, int64_t pairs, const int64_t *at,
                  const int64_t *amount, int64_t width, const int64_t *pad_u,
                  const double *pad_w, const int64_t *pad_e, int64_t jump, int64_t per,
                  int64_t *acc, int64_t *flow)
{
    enum { MAX_JUMPS = 1000 }; /* paths.Metric: fewer than 10^3 jumps */
    int64_t *count = calloc(MAX_JUMPS + 1, sizeof *count); /* where each level's ends start */
    int64_t *fill = malloc((MAX_JUMPS + 1) * sizeof *fill);  /* ... and end */
    int64_t *ends = malloc((size_t)(pairs + 1) * sizeof *ends);
    int64_t *here = malloc((size_t)(pairs + k * n + 1) * sizeof *here);
    int64_t *up = malloc((size_t)(k * n + 1) * sizeof *up);
    int status = -1;
    if (!count || !fill || !ends || !here || !up)
        goto done;
    /* The ends by their jumps (a counting sort). */
    int64_t top = 0;
    for (int64_t i = 0; i < pairs; i++) {
        if (!amount[i])
            continue;
        int64_t w = (int64_t)dist[at[i]] / jump, j = per ? w % per : w;
        if (j >= MAX_JUMPS) {
            status = -3;
            goto done;
        }
        count[j + 1]++;
        if (j > top)
            top = j;
        acc[at[i]] += amount[i];
    }
    for (int64_t j = 1; j <= MAX_JUMPS; j++)
        count[j] += count[j - 1];
    for (int64_t j = 0; j <= MAX_JUMPS; j++)
        fill[j] = count[j];
    for (int64_t i = 0; i < pairs; i++) {
        if (!amount[i])
            continue;
        int64_t w = (int64_t)dist[at[i]] / jump, j = per ? w % per : w;
        ends[fill[j]++] = at[i];
    }
    int64_t nhere = 0, nup = 0;
    for (int64_t lv = top; lv >= 1; lv--) {
        /* This level's nodes: its ends, then the parents handed up by the level deeper. */
        for (int64_t i = count[lv]; i < fill[lv]; i++)
            here[nhere++] = ends[i];
        for (int64_t i = 0; i < nup; i++)
            here[nhere++] = up[i];
        nup = 0;
        for (int64_t i = 0; i < nhere; i++) {
            int64_t f = here[i], value = acc[f];
            if (!value)
                continue; /* an end listed twice: its amounts went up with the first */
            acc[f] = 0;
            int64_t base = f - f % n, v = f % n, j = 0;
            const int64_t *cand = pad_u + v * width;
            const double *w = pad_w + v * width;
            while (j < width && dist[base + cand[j]] + w[j] != dist[f])
                j++;
            if (j == width) {
                status = -2;
                goto done;
            }
            int64_t parent = base + cand[j];
            flow[pad_e[v * width + j]] += value;
            if (!acc[parent])
                up[nup++] = parent;
            acc[parent] += value;
        }
        nhere = 0;
    }
    for (int64_t i = 0; i < nup; i++)
        acc[up[i]] = 0; /* the sources ... */
    for (int64_t i = count[0]; i < fill[0]; i++)
        acc[ends[i]] = 0; /* ... and any end at no jumps: acc is all zeros again */
    status = 0;
done:
    free(count);
    free(fill);
    free(ends);
    free(here);
    free(up);
    return status;
}
