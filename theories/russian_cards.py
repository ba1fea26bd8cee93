"""Russian cards, deal 012|345|6.  Run: python theories/russian_cards.py"""

from kop.puzzles import russian_cards as rc

m = rc.model()
classic = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)]
print(f"{len(m)} deals; Alice announces {classic}")
labels = ["announcement true", "Bob knows Alice's hand", "... commonly known by Alice and Bob",
          "Cath's ignorance commonly known", "after Bob's 'Cath has 6': hands common knowledge",
          "... and Cath's ignorance still commonly known"]
for label, phi in zip(labels, rc.conditions(classic)):
    print(f"  {label:<52} {m.satisfies(phi)}")
r = rc.solve()
print(r)
