"""Game trees with chance nodes: *-minimax search (Ballard; Bodkin §3.10).

Two-player zero-sum view: the searching player P maximizes its own payoff component
(minimizes it if P's goal is "min"), every other player is assumed to work against it,
and a chance node is worth the probability-weighted mean of its children.

* :mod:`~kop.games.chance.expectimax`: the full search, the reference;
* :mod:`~kop.games.chance.star1`, :mod:`~kop.games.chance.star2`: Ballard's *-minimax
  pruning with payoff bounds L <= u <= U (Star2 adds a probing phase);
* :mod:`~kop.games.chance.cscout`: Bodkin's CSCOUT, SCOUT with chance nodes.

All return the expectimax value (up to float rounding, relative 1e-9) and count leaves.
For N players who each maximize their own payoff with chance nodes, use :func:`kop.mh`.
"""
