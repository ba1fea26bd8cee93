"""Figure 2 with A uncertain about E_B: beliefs, probabilities, PrOM (docs/uncertainty.md, docs/selection.md).

Run it:  python theories/figure2_uncertain.py

A does not know B's evaluation.  It considers two opponent types (each plays B's minimax on
its own evaluation): the actual E_B, and an adversarial B that minimizes A's payoff (E_B = E_A).

(1) A's belief is true: E_B (probability 0.3) or adversarial (0.7).
(2) A's belief is false: adversarial (0.5) or a B that prefers (1,5) to (9,4) at T (0.5) -- the
    actual E_B is not among them.

For each of A's candidate strategies the table shows the expected outcome (type drawn once, with
A's probabilities), the believed one (against the most probable type), the guaranteed one (the
worst over the types A considers possible) and the actual one (against B's real evaluation).
"""

import kop

t = kop.figure2()
EB = [7, 9, 4, 6, 3, 10, 8, 9, 2, 12, 4, 5]       # B's actual payoffs, leaves left to right (kop.leaf_order)
ADV = [4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]      # adversarial: B minimizes A's payoff (E_A)
T_SWAPPED = EB[:10] + [6, 4]                      # like E_B but at T B prefers (1,5): wrong


def table(title, belief):
    r = belief.resolve(t)
    print(f"-- {title}: the belief is {'true' if r.true else 'FALSE'} "
          f"(A gives the actual E_B probability {r.p_actual:g})")
    print(f"   {'strategy':11} {'move':4} {'expected':>14} {'believed':>10} {'guaranteed':>10} {'actual':>10}")
    for row in kop.outcomes_under_belief(t, belief):
        print(f"   {row.strategy:11} {row.move:4} {str(row.expected):>14} {str(row.believed):>10} "
              f"{str(row.guaranteed):>10} {str(row.actual):>10}   guarantee holds {row.holds}"
              + ("" if row.guarantee_holds else ", NOT against the actual B"))
    return {row.strategy: row for row in kop.outcomes_under_belief(t, belief)}


true_rows = table("(1) E_B 0.3, adversarial 0.7", kop.believes_candidates("A", "B", [EB, ADV], ["0.3", "0.7"]))
false_rows = table("(2) adversarial 0.5, T swapped 0.5",
                   kop.believes_candidates("A", "B", [ADV, T_SWAPPED], ["1/2", "1/2"]))

# PrOM (a type drawn at every move) and its Bayesian variant (a type drawn once) differ here:
prom = kop.prom(t, "A", [EB, ADV], ["0.3", "0.7"])
bayes = kop.prom_bayes(t, "A", [EB, ADV], ["0.3", "0.7"])
print(f"PrOM moves {prom.next().name}; PrOM-Bayes moves {bayes.next().name} "
      "(a type drawn once shows itself at S, and A can exploit it at U or V)")

# the figures docs/uncertainty.md quotes (checked when this file runs)
assert (prom.next().name, bayes.next().name) == ("R", "S")
assert true_rows["PrOM-Bayes"].expected == (4.4, 2.3) and true_rows["PrOM-Bayes"].actual == (10, 3)
assert true_rows["minimax"].expected == (4, 7)
assert false_rows["PrOM"].move == "S" and false_rows["PrOM"].guaranteed == (1, 9)
assert false_rows["PrOM"].actual == (10, 3) and false_rows["PrOM"].holds == "in belief"
