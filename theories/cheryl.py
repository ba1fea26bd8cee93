"""Cheryl's birthday.  Run: python theories/cheryl.py

The same model as JSON, for the command line: theories/cheryl.model.json, e.g.
``kop check theories/cheryl.model.json "K_Albert ~(Kw_Bernard July16 & Kw_Bernard May19)"``.
"""

from kop.puzzles import cheryl

m = cheryl.model()
print(f"{len(m)} candidate dates")
for who, phi in zip(["Albert", "Bernard", "Albert"], cheryl.statements()):
    m = m.announce(phi)
    dates = sorted((cheryl.date_of(m, w) for w in m.worlds), key=cheryl.DATES.index)
    print(f"{who}: {phi}\n  -> {len(m)} left: {', '.join(f'{mo} {d}' for mo, d in dates)}")
