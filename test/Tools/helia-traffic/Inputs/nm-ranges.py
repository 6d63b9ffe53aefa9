"""Writes the plugin's ranges for copy.test: mps3-an547's memories, and one
arena per symbol named on the command line, from `llvm-nm -S` output."""
import sys

print("memory 0x00000000 0x00080000 itcm")
print("memory 0x01000000 0x01200000 sram")
print("memory 0x20000000 0x20080000 dtcm")
print("memory 0x28000000 0x28800000 qspi")
symbols = {}
for line in open(sys.argv[1]):
    fields = line.split()
    if len(fields) == 4:
        symbols[fields[3]] = (int(fields[0], 16), int(fields[1], 16))
for name in sys.argv[2:]:
    address, size = symbols[name]
    print(f"arena 0x{address:x} 0x{address + size:x} {name}")
