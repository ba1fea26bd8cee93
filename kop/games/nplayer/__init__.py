"""N-player perfect-information search (Bodkin, *Extending Computational Game Theory*, Ch. 4).

Every player maximizes its own payoff component (max^n).  The modules:

* :mod:`~kop.games.nplayer.maxn`: the naive back-induction ("Naive-Solution", §4.0);
* :mod:`~kop.games.nplayer.bnb`: Branch-and-Bound, i.e. shallow pruning (§4.1.3);
* :mod:`~kop.games.nplayer.lower_eval`: Lower-Eval, deep cutoffs from lower bounds only (§4.2.2);
* :mod:`~kop.games.nplayer.bimodal`: Bimodal-Eval / Unimodal-Eval, deep cutoffs (§4.2);
* :mod:`~kop.games.nplayer.paranoid`: the paranoid reduction (every opponent minimizes the
  searching player's payoff; alpha-beta), an opponents' model, not max^n;
* :mod:`~kop.games.nplayer.bounds`: the payoff and payoff-sum bounds that the pruning relies on;
* :mod:`~kop.games.nplayer.random_trees`: the random trees of the thesis's §4.6.

Every pruning search returns exactly the max^n value of the naive search (first child on
ties), and counts the leaves it examines.
"""
