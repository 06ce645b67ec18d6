# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# AK8974/AMI306 magnetometers on I2C (drivers/iio/magnetometer/ak8974.c).
# The driver and the board's DT nodes (dts/ak8974.dtso; dts/rpi/ak8974.dtso
# on the Pi's i2c1) are the product; on QEMU virt the bus is emulated by
# i2c-ak8974-sim (kernel-patches/0006-0007), a fixture module with chip
# models, loaded by the fixture disk (rootfs/fixtures/skeleton/etc/init.d/
# S20ak8974-sim); i2c-stub is the other fixture path. Kernel options:
# board/linux/ak8974.config (product), board/linux/fixtures/ak8974.config.
# The checks: rootfs/fixtures/checks/30-ak8974.sh (every expected value
# comes from the chip models' debugfs state).
