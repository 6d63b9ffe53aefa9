/*===- qemu-plugin-api.h - The part of QEMU's TCG plugin API helia uses ---===
 *
 * Debian's qemu-system-arm 7.2 loads TCG plugins (`-plugin file.so,...`) but
 * ships no qemu-plugin.h. These are the declarations helia-traffic needs,
 * written to match the ABI of QEMU 7.2's plugin API, version 1
 * (include/qemu/qemu-plugin.h at v7.2.0): QEMU resolves the functions from
 * its own executable when it loads the plugin, and checks the exported
 * qemu_plugin_version against the versions it supports (0 to 1 in 7.2).
 *
 *===----------------------------------------------------------------------===*/

#ifndef HELIA_TRAFFIC_QEMU_PLUGIN_API_H
#define HELIA_TRAFFIC_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HELIA_QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

/* The API version the plugin was written against. */
#define HELIA_QEMU_PLUGIN_API_VERSION 1

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells the plugin when it installs it (valid during the call). */
typedef struct qemu_info_t {
  const char *target_name;
  struct {
    int min;
    int cur;
  } version;
  bool system_emulation;
  union {
    struct {
      int smp_vcpus;
      int max_vcpus;
    } system;
  };
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* A memory access, queried with the qemu_plugin_mem_* functions. */
typedef uint32_t qemu_plugin_meminfo_t;

enum qemu_plugin_cb_flags {
  QEMU_PLUGIN_CB_NO_REGS,
  QEMU_PLUGIN_CB_R_REGS,
  QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
  QEMU_PLUGIN_MEM_R = 1,
  QEMU_PLUGIN_MEM_W,
  QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
                                          qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);

/* Provided by the plugin. */
HELIA_QEMU_PLUGIN_EXPORT extern int qemu_plugin_version;
HELIA_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                                 const qemu_info_t *info,
                                                 int argc, char **argv);

/* Provided by QEMU. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags,
                                            void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
                                      qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags,
                                      enum qemu_plugin_mem_rw rw,
                                      void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

#endif /* HELIA_TRAFFIC_QEMU_PLUGIN_API_H */
