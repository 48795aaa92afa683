# SPDX-License-Identifier: GPL-2.0-only
"""AMD's own event list for k7, typed from CodeXL's 0x6.xml
(GPUOpen-Archive/CodeXL commit b634e4ae, CodeXL/Components/CpuProfiling/
Data/Events/Public/): AMD Athlon (K7) event list; the file names no BKDG.
"""

TABLE = "k7"
FILE = "0x6.xml"
MANUAL = "AMD Athlon (K7) event list; the file names no BKDG"
# code: (unit, PERF_CTL counter mask or None, unit mask bits)
EVENTS = {
    0x040: ("DC", None, ()),
    0x041: ("DC", None, ()),
    0x042: ("DC", None, (0, 1, 2, 3, 4)),
    0x043: ("DC", None, (0, 1, 2, 3, 4)),
    0x044: ("DC", None, (0, 1, 2, 3, 4)),
    0x045: ("DC", None, ()),
    0x046: ("DC", None, ()),
    0x047: ("DC", None, ()),
    0x076: ("BU", None, ()),
    0x080: ("IC", None, ()),
    0x081: ("IC", None, ()),
    0x084: ("IC", None, ()),
    0x085: ("IC", None, ()),
    0x0C0: ("FR", None, ()),
    0x0C1: ("FR", None, ()),
    0x0C2: ("FR", None, ()),
    0x0C3: ("FR", None, ()),
    0x0C4: ("FR", None, ()),
    0x0C5: ("FR", None, ()),
    0x0C6: ("FR", None, ()),
    0x0C7: ("FR", None, ()),
    0x0CD: ("FR", None, ()),
    0x0CE: ("FR", None, ()),
    0x0CF: ("FR", None, ()),
}

# Ours has these, AMD's K7 file lacks them: the events of the Athlon
# optimization guide 22007 revision E (November 1999, Appendix D, Table 11)
# that revision K (February 2002) and CodeXL's 0x6.xml no longer list.
# Each says "revision E only" in its PublicDescription (k7/SOURCES).
_REV_E_PAGE = ("kept, rev E only; 22007E page 164 (manualshelf copy), "
               "with perfctr's event_set_amd.c")
_REV_E = ("kept, rev E only; 22007E Table 11 as transcribed in perfctr's "
          "event_set_amd.c (third party: the manual page was not read)")
EXTRA = {}
for _bit in range(7):                      # 20h segment register loads
    EXTRA[(0x020, _bit)] = _REV_E_PAGE
EXTRA[(0x021, None)] = _REV_E_PAGE         # pipeline flush, self-modifying
EXTRA[(0x064, None)] = _REV_E_PAGE         # data cache refills, system
for _code, _bits in ((0x065, (0, 1, 4, 5, 6)), (0x073, (0, 1, 2)),
                     (0x074, (0, 1)), (0x075, (0, 1, 2, 3)),
                     (0x079, tuple(range(8)))):
    for _bit in _bits:
        EXTRA[(_code, _bit)] = _REV_E
for _code in (0x07A, 0x082, 0x083, 0x086, 0x087, 0x088, 0x089,
              0x0C8, 0x0C9, 0x0CA) + tuple(range(0x0D0, 0x0DB)) + \
        (0x0DC, 0x0DD, 0x0DE, 0x0DF):
    EXTRA[(_code, None)] = _REV_E
