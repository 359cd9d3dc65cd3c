"""Issue 16 item 2: every gun-armed AFV mount names its gun chart row, and the German P40(i),
StuG M43(i) and Italian 40mm L56 Bofors equipment rows name their chart records."""

from __future__ import annotations

from conftest import ref_exists


def _gun_mounts(cat):
    """(afv id, mount) for every mount that is a gun: a calibre and no MG class, not a mortar."""
    for afv in cat.all("afv"):
        for mount in afv.armament:
            calibre = mount.calibre_mm
            if calibre is None and (mount.calibre_len) is None:
                continue
            if mount.mg is not None or "mortar" in (mount.raw or "").lower():
                continue
            yield afv.id, mount


def test_every_gun_mount_links_to_a_gun_record(cat):
    mounts = list(_gun_mounts(cat))
    assert len(mounts) > 300
    unlinked = [afv_id for afv_id, m in mounts if (m.gun_ref) is None]
    assert unlinked == []
    dangling = [(a, (m.gun_ref)) for a, m in mounts if not ref_exists(cat, (m.gun_ref))]
    assert dangling == []


def test_issue16_links_hand_checked(cat):
    def gun_of(afv_id, raw):
        afv = cat.get("afv", afv_id)
        return next((m.gun_ref) for m in afv.armament if m.raw == raw)

    assert gun_of("ussr/t-34-76-m1940", "m L30") == "gun:ussr/76mm-l30-m02-30"
    assert gun_of("ussr/kv-1-m1939", "m L30") == "gun:ussr/76mm-l30-m02-30"
    assert gun_of("germany/stug-iii-a-e", "75 L") == "gun:germany/75mm-l24-kwk-37"
    assert gun_of("germany/marder-iiitm", "75 L") == "gun:germany/75mm-l46-pak-40"


def test_equipment_rows_name_their_chart_record(cat):
    expected = {
        "germany/afv-p40i": "afv:italy/p40",
        "germany/afv-stug-m43-75-34i": "afv:italy/semovente-m43-75-34",
        "germany/afv-stug-m43-75-46i": "afv:italy/semovente-m43-75-46",
        "germany/afv-stug-m43-105-25i": "afv:italy/semovente-m43-105-25",
        "italy/gun-40mm-l56-bofors-aa": "gun:britain/40mm-l48-bofors-aa",
    }
    for eq_id, ref in expected.items():
        got = cat.get("equipment", eq_id).item_ref
        assert got == ref and ref_exists(cat, ref)
