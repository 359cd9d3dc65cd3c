"""Transport classes of the Panzerfaust equipment lists ("Medium Truck", p44 lists) and how a
softskin's printed name says which it is (decision P107); first match wins."""

from __future__ import annotations

import re

TRANSPORT_CLASSES = (
    ("motorcycle_sidecar", r"sidecar"),
    ("motorcycle", r"motorcyc|m-cycle|kettengrad"),
    ("light_halftrack", r"light half[- ]?track"),
    ("medium_halftrack", r"medium half[- ]?track"),
    ("heavy_halftrack", r"heavy half[- ]?track"),
    # British classes print a load between size and "Truck" ("Light 15cwt Truck", "Medium 3ton
    # Truck", "Medium 30cwt Trck", p46)
    ("light_truck", r"light (?:[\d.]+ ?(?:cwt|ton) )?tru?ck"),
    ("medium_truck", r"medium (?:[\d.]+ ?(?:cwt|ton) )?tru?ck"),
    ("heavy_truck", r"heavy truck"),
    ("tractor", r"tractor|schlepper"),
    ("jeep", r"\bjeep"),
    ("amphibian", r"dukw|schwimmwagen"),
    ("field_car", r"field car|light car|medium car|heavy car|kubel|\bcar\b"),
)


def transport_class(name: str) -> str | None:
    folded = name.casefold().replace("motorcyc1e", "motorcycle")
    for cls, pattern in TRANSPORT_CLASSES:
        if re.search(pattern, folded):
            return cls
    return None
