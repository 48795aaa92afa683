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
