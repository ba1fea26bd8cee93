"""Dining cryptographers.  Run: python theories/dining_cryptographers.py [N PAYER]"""

import sys

from kop.puzzles import dining_cryptographers as dc

n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
payer = int(sys.argv[2]) if len(sys.argv) > 2 else 1
heads = dc.coins(n)[::2]
r = dc.dine(n, payer, heads)
print(f"{n} cryptographers, payer {payer} (0 = NSA), coins up: {heads}")
print(f"announced bits {r.bits}: parity says {'a cryptographer' if r.someone_at_table_paid else 'the NSA'} paid")
print(f"common knowledge whether the NSA paid: {r.nsa_common_knowledge}")
print(f"who knows who paid: {list(r.knowers_of_payer)}")
for i, s in r.suspects.items():
    print(f"  cryptographer {i} suspects {list(s)}")
print("SMCDEL's check formula valid:", dc.model(n).satisfies(dc.smcdel_formula(n)))
