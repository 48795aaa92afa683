# SPDX-License-Identifier: GPL-2.0-only
"""AMD's own event list for k8, typed from CodeXL's 0xf.xml
(GPUOpen-Archive/CodeXL commit b634e4ae, CodeXL/Components/CpuProfiling/
Data/Events/Public/): BKDG for AMD Athlon 64 and AMD Opteron Processors, 26094 rev 3.30, February 2006.
"""

TABLE = "k8"
FILE = "0xf.xml"
MANUAL = "BKDG for AMD Athlon 64 and AMD Opteron Processors, 26094 rev 3.30, February 2006"
# code: (unit, PERF_CTL counter mask or None, unit mask bits)
EVENTS = {
    0x000: ("FP", None, (0, 1, 2, 3, 4, 5)),
    0x001: ("FP", None, ()),
    0x002: ("FP", None, ()),
    0x020: ("LS", None, (0, 1, 2, 3, 4, 5, 6)),
    0x021: ("LS", None, ()),
    0x022: ("LS", None, ()),
    0x023: ("LS", None, ()),
    0x024: ("LS", None, (0, 1, 2)),
    0x026: ("EU", None, ()),
    0x027: ("EU", None, ()),
    0x040: ("DC", None, ()),
    0x041: ("DC", None, ()),
    0x042: ("DC", None, (0, 1, 2, 3, 4)),
    0x043: ("DC", None, (0, 1, 2, 3, 4)),
    0x044: ("DC", None, (0, 1, 2, 3, 4)),
    0x045: ("DC", None, ()),
    0x046: ("DC", None, ()),
    0x047: ("DC", None, ()),
    0x048: ("DC", None, ()),
    0x049: ("DC", None, ()),
    0x04A: ("DC", None, (0, 1)),
    0x04B: ("DC", None, (0, 1, 2)),
    0x04C: ("DC", None, (1,)),
    0x065: ("LS", None, (0, 1, 7)),
    0x067: ("L2", None, (0, 1)),
    0x06C: ("L2", None, (0, 1, 2)),
    0x06D: ("L2", None, (0,)),
    0x076: ("EU", None, ()),
    0x07D: ("L2", None, (0, 1, 2, 3, 4)),
    0x07E: ("L2", None, (0, 1, 2)),
    0x07F: ("L2", None, (0,)),
    0x080: ("IC", None, ()),
    0x081: ("IC", None, ()),
    0x082: ("IC", None, ()),
    0x083: ("IC", None, ()),
    0x084: ("IC", None, ()),
    0x085: ("IC", None, ()),
    0x086: ("IC", None, ()),
    0x087: ("IC", None, ()),
    0x088: ("IC", None, ()),
    0x089: ("IC", None, ()),
    0x0C0: ("EU", None, ()),
    0x0C1: ("EU", None, ()),
    0x0C2: ("EU", None, ()),
    0x0C3: ("EU", None, ()),
    0x0C4: ("EU", None, ()),
    0x0C5: ("EU", None, ()),
    0x0C6: ("EU", None, ()),
    0x0C7: ("EU", None, ()),
    0x0C8: ("EU", None, ()),
    0x0C9: ("EU", None, ()),
    0x0CA: ("EU", None, ()),
    0x0CB: ("EU", None, (0, 1, 2, 3)),
    0x0CC: ("EU", None, (0, 1, 2)),
    0x0CD: ("EU", None, ()),
    0x0CE: ("EU", None, ()),
    0x0CF: ("EU", None, ()),
    0x0D0: ("EU", None, ()),
    0x0D1: ("EU", None, ()),
    0x0D2: ("EU", None, ()),
    0x0D3: ("EU", None, ()),
    0x0D4: ("EU", None, ()),
    0x0D5: ("EU", None, ()),
    0x0D6: ("EU", None, ()),
    0x0D7: ("EU", None, ()),
    0x0D8: ("EU", None, ()),
    0x0D9: ("EU", None, ()),
    0x0DA: ("EU", None, ()),
    0x0DB: ("EU", None, (0, 1, 2, 3)),
    0x0DC: ("EU", None, ()),
    0x0DD: ("EU", None, ()),
    0x0DE: ("EU", None, ()),
    0x0DF: ("EU", None, ()),
    0x0E0: ("NB", None, (0, 1, 2)),
    0x0E1: ("NB", None, ()),
    0x0E3: ("NB", None, (0, 1, 2)),
    0x0E4: ("NB", None, (0, 1, 2, 3)),
    0x0E5: ("NB", None, (2, 3, 4, 5)),
    0x0E8: ("NB", None, (0, 1, 2, 3, 7)),
    0x0E9: ("NB", None, (0, 1, 2, 3, 4, 5, 6, 7)),
    0x0EA: ("NB", None, (0, 1, 2, 3, 4)),
    0x0EB: ("NB", None, (0, 1, 2, 3, 4, 5, 6)),
    0x0EC: ("NB", None, (0, 1, 2, 3, 4, 5, 6)),
    0x0EE: ("NB", None, (0, 1, 2)),
    0x0F6: ("NB", None, (0, 1, 2, 3)),
    0x0F7: ("NB", None, (0, 1, 2, 3)),
    0x0F8: ("NB", None, (0, 1, 2, 3)),
}

# AMD's K8 file against ours (k8/SOURCES, "CodeXL 0xf.xml" section).
# EAh: CXL gives bits 0-4 (victim, read block, read block shared, read
# block modified, change to dirty); ours has bits 0 and 2-5 for the same
# five commands, as libpfm4's amd64_events_k8.h, oprofile's hammer
# unit_masks and every later family's CodeXL file (0x10.xml and on) have
# them. CXL's K8 file looks shifted by one here; ours stands.
MISSING = {
    (0x0EA, 1): "CXL 0xf.xml reads block at bit 1; ours keeps bit 1 unused "
                "and read block at bit 2 (libpfm4 k8, oprofile hammer, "
                "CXL 0x10.xml); review §3 item 7",
}
EXTRA = {
    (0x0EA, 5): "change to dirty at bit 5, as libpfm4 k8, oprofile hammer "
                "and CXL 0x10.xml; CXL 0xf.xml has it at bit 4",
    (0x07F, 1): "L2 writebacks (rev F): BKDG 32559 (NPT family 0Fh) as "
                "transcribed in libpfm4 amd64_events_k8.h; not in 26094 "
                "rev 3.30, which CXL 0xf.xml follows",
}
