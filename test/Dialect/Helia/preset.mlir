// RUN: helia-opt %s | helia-opt | FileCheck %s

// The preset form of helia.platform, and the enum attributes on their own.

// CHECK: module attributes {helia.platform = "apollo4p_evb", test.kinds = [#helia.kind<scratch>, #helia.kind<persistent>, #helia.kind<constant>, #helia.kind<any>], test.residencies = [#helia.residency<direct>, #helia.residency<pin>, #helia.residency<stream>], test.roles = [#helia.role<scratch>, #helia.role<persistent>, #helia.role<constant>]}
module attributes {
  helia.platform = "apollo4p_evb",
  test.kinds = [#helia.kind<scratch>, #helia.kind<persistent>, #helia.kind<constant>, #helia.kind<any>],
  test.residencies = [#helia.residency<direct>, #helia.residency<pin>, #helia.residency<stream>],
  test.roles = [#helia.role<scratch>, #helia.role<persistent>, #helia.role<constant>]
} {
}
