"""Possible-worlds games (Jamroga 2001; Frank & Basin 1998) and the algorithms that play them.

* :mod:`kop.worlds.game`: :class:`WorldsGame` (payoff vectors over Ω, partial
  payoffs, belief functions Ω_MAX, Ω_MIN, conversion to and from Kripke models);
* one algorithm per module: :mod:`~kop.worlds.mc` (Monte Carlo sampling),
  :mod:`~kop.worlds.vm` (vector minimaxing), :mod:`~kop.worlds.prm`
  (payoff-reduction minimaxing), :mod:`~kop.worlds.optbd` (optimal play against
  best defense), :mod:`~kop.worlds.gvm` (generalized vector minimaxing),
  :mod:`~kop.worlds.findoptimal` (optimal play against reasonably good defense);
* :mod:`kop.worlds.generators`: the random games of §2.1 and §3.3;
* :mod:`kop.worlds.competition`: playing strategies and the competitions of §2.1.
"""
