"""Action models on a hidden coin: public announcement, a semi-private look, a private peek
with suspicion, a secret flip, and bisimulation contraction.  Run: python theories/action_models.py
"""

from kop import ActionModel, KripkeModel, bisimilar

coin = KripkeModel.load("theories/coin.model.json")   # h: heads; a and b see nothing; actual: heads
print(f"coin: {coin.worlds}, actual {coin.actual}; a knows whether h: {coin.satisfies('Kw_a h')}")

# 1. a public announcement of h, as an action model and as announce()
pa = ActionModel.public_announcement("h", coin.agents)
print("public announcement == announce():", bisimilar(coin.product_update(pa), coin.announce("h")))

# 2. a looks at the coin while b watches: a learns whether h, b knows that a learnt it
look = coin.product_update(ActionModel.semi_private("h", ["a"], coin.agents))
print(f"after a looks openly:  K_a h {look.satisfies('K_a h')}, K_b Kw_a h {look.satisfies('K_b Kw_a h')}, "
      f"Kw_b h {look.satisfies('Kw_b h')}")

# 3. a peeks secretly; b thinks a may have peeked or nothing happened
peek = ActionModel(["peekH", "peekT", "skip"], pre={"peekH": "h", "peekT": "~h"},
                   partitions={"a": [["peekH"], ["peekT"], ["skip"]], "b": [["peekH", "peekT", "skip"]]},
                   actual="peekH")
secret = coin.product_update(peek)
print(f"after a peeks secretly ({len(secret)} worlds): K_a h {secret.satisfies('K_a h')}, "
      f"K_b Kw_a h {secret.satisfies('K_b Kw_a h')}, M_b Kw_a h {secret.satisfies('M_b Kw_a h')}")

# 4. a flips the coin secretly (factual change: h becomes ~h); b cannot tell flip from skip
flip = ActionModel(["flip", "skip"], post={"flip": {"h": "~h"}},
                   partitions={"a": [["flip"], ["skip"]], "b": [["flip", "skip"]]}, actual="flip")
flipped = coin.product_update(flip)
print(f"after a secret flip: h {flipped.satisfies('h')}, worlds {flipped.worlds}")

# 5. contraction: the flip model has two copies of each coin face for b
small = flipped.minimize()
print(f"minimized: {len(flipped)} -> {len(small)} worlds; bisimilar: {bisimilar(flipped, small)}")
