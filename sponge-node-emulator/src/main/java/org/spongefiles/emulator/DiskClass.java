package org.spongefiles.emulator;

import java.util.Locale;

/**
 * The spill-disk classes a node can have, as blkio throttle limits on an emulated disk: {@code hdd}
 * about a 7200 RPM disk (120 MB/s, 150 IOPS), {@code sata-ssd} 500 MB/s, {@code nvme} the
 * unthrottled backing disk (the numbers every earlier benchmark measured). A limit of 0 means none.
 */
public enum DiskClass {
  NVME("nvme", 0, 0),
  SATA_SSD("sata-ssd", 500_000_000L, 0),
  HDD("hdd", 120_000_000L, 150);

  /** The name used in BENCH lines and on the command line. */
  public final String label;

  /** Read and write bandwidth limit in bytes per second, 0 for none. */
  public final long bytesPerSecond;

  /** Read and write operations per second limit, 0 for none. */
  public final long iops;

  DiskClass(String label, long bytesPerSecond, long iops) {
    this.label = label;
    this.bytesPerSecond = bytesPerSecond;
    this.iops = iops;
  }

  boolean throttled() {
    return bytesPerSecond > 0 || iops > 0;
  }

  /** The class named {@code label} ("hdd", "sata-ssd", "nvme"). */
  public static DiskClass of(String label) {
    for (DiskClass disk : values()) {
      if (disk.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
        return disk;
      }
    }
    throw new IllegalArgumentException(
        "disk class : " + label + " (expected: one of hdd, sata-ssd, nvme)");
  }

  /** The limits in words, for reports. */
  public String describe() {
    if (!throttled()) {
      return label + " (unthrottled backing disk)";
    }
    return String.format(
        Locale.ROOT,
        "%s (%d MB/s%s read and write, blkio throttle)",
        label,
        bytesPerSecond / 1_000_000,
        iops > 0 ? ", " + iops + " IOPS" : "");
  }
}
