# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# cachefiles: the board caches a network file system with fscache +
# cachefiles (board/linux/cachefiles.config); the product has
# cachefiles-bind (rootfs/tools/cachefiles-bind.c, a minimal cachefilesd).
# In QEMU (qemu/devices/cachefiles.sh) the network file system is a 9p
# share of files of known content (tools/cachefiles-share.sh) and the cache
# an empty ext4 disk made by mke2fs (nothing is mounted on the host). The
# key encoder common/cachefiles-key.c is the independent reference for the
# cache file names: built for the host check cachefiles_vectors and for the
# fixture disk, beside the KUnit suite cachefiles_key
# (board/linux/fixtures/cachefiles.config).
#   CACHEFILES_DISK_SIZE=32M   size of the cache disk

CACHEFILES_SHARE := $(IMAGES)/cachefiles-share
CACHEFILES_DISK := $(IMAGES)/cachefiles-cache.ext4
CACHEFILES_DISK_SIZE ?= 32M
HOST_PKGS += e2fsprogs
TARGET_PROGS += cachefiles-bind
cachefiles-bind_SRCS := $(TOP)/rootfs/tools/cachefiles-bind.c
FIXTURE_PROGS += cachefiles-key
HOST_PROGS += cachefiles-key
cachefiles-key_SRCS := $(TOP)/common/cachefiles-key.c
HOST_CHECK_DEPS += $(HOST_BIN)/cachefiles-key
ALL += $(CACHEFILES_SHARE)/SHA256SUMS $(CACHEFILES_DISK)
RUN_ARGS += --cachefiles-share $(CACHEFILES_SHARE) --cachefiles-disk $(CACHEFILES_DISK)

$(CACHEFILES_SHARE)/SHA256SUMS: $(TOP)/tools/cachefiles-share.sh
	$(Q)sh $< $(CACHEFILES_SHARE)

# A new share gets a new, empty cache disk: the cache names files after their
# inode numbers, so entries of an older share would look like strangers.
$(CACHEFILES_DISK): $(CACHEFILES_SHARE)/SHA256SUMS | deps
	$(Q)mkdir -p $(@D)
	@echo "  MKE2FS  $(notdir $@) ($(CACHEFILES_DISK_SIZE), empty cache disk)"
	$(Q)rm -f $@ && truncate -s $(CACHEFILES_DISK_SIZE) $@
	$(Q)mke2fs -q -F -t ext4 -b 4096 -L nsbsp-cache -E root_owner=0:0 $@
