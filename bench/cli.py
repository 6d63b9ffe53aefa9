"""The command line the bench scripts share: the build directory whose tools
they run and, for the scripts that read the shared models, the shared bench
directory (read in place)."""
import argparse
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_BENCH = os.path.join(HERE, "..", "..", "shared", "bench")


def make_parser(doc, bench=True):
    """A parser described by the first line of `doc`, with the positional
    `build` (default `build`) and, if `bench`, `bench` arguments."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build",
                        help="build directory with bin/helia-opt")
    if bench:
        parser.add_argument("bench", nargs="?", default=SHARED_BENCH,
                            help="the shared bench directory")
    return parser


def tool(build, name="helia-opt"):
    """The path of the tool `name` in the build directory `build`."""
    return os.path.join(build, "bin", name)
