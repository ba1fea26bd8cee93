"""Two-player zero-sum games with simultaneous moves (Bodkin Ch. 3): matrix-tree search.

At a *stage* both players choose at once (the row player maximizes, the column player
minimizes the row player's payoff); a chance event may follow.  A stage is worth the
value of the matrix game of its children's values, solved by linear programming.

* :mod:`~kop.games.simultaneous.matrix`: matrix games: LP (scipy HiGHS), saddle points,
  exact rational solutions;
* :mod:`~kop.games.simultaneous.naive`: Naive-Solution, full back-induction (§3.2);
* :mod:`~kop.games.simultaneous.bound_tests`: Test-<= and Test->= (§3.3.2);
* :mod:`~kop.games.simultaneous.substructure`: Substructure-Eval (§3.3.4);
* :mod:`~kop.games.simultaneous.dominating`: Dominating-Eval (§3.3.3);
* :mod:`~kop.games.simultaneous.core`: the matrix-tree layout, random trees, results.
"""
