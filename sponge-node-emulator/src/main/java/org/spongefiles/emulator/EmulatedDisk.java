package org.spongefiles.emulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A spill disk of one {@link DiskClass}: a sparse ext4 image attached to a loop device with {@code
 * losetup --direct-io=on} (so the backing disk's page cache does not absorb what the emulated disk
 * writes), mounted, and throttled with the blkio controller's {@code
 * throttle.{read,write}_{bps,iops}_device} for the loop device's major:minor. The limits are set in
 * the ROOT blkio group: dirty pages are written back by kernel flusher threads that belong to the
 * root group, so a limit in a child group would throttle direct reads and writes but not writeback.
 *
 * <p>Known limitation: blkio throttles reads and writes separately, so a neighbour reading the disk
 * does not slow this disk's writes as a shared disk head would; only the IOPS and bandwidth of the
 * same direction are shared.
 */
public final class EmulatedDisk extends HostResource {
  static final Path BLKIO = Path.of("/sys/fs/cgroup/blkio");
  private static final String[] LIMITS = {
    "blkio.throttle.read_bps_device",
    "blkio.throttle.write_bps_device",
    "blkio.throttle.read_iops_device",
    "blkio.throttle.write_iops_device"
  };

  public final DiskClass diskClass;

  /** Where the file system is mounted: the spill directories go under it. */
  public final Path mount;

  private final Path image;
  private final String device;
  private final String majorMinor;

  private EmulatedDisk(
      DiskClass diskClass, Path image, String device, String majorMinor, Path mount) {
    this.diskClass = diskClass;
    this.image = image;
    this.device = device;
    this.majorMinor = majorMinor;
    this.mount = mount;
  }

  /**
   * Makes a disk of {@code diskClass} with {@code sizeBytes} of (sparse) space; its image and mount
   * point go in {@code parent}, named {@code spongebench-<pid>-disk-<name>}.
   */
  public static EmulatedDisk create(DiskClass diskClass, String name, long sizeBytes, Path parent)
      throws IOException {
    String base = Teardown.prefix() + "disk-" + name;
    Path image = parent.resolve(base + ".img");
    Path mount = parent.resolve(base);
    HostCommand.run("truncate", "-s", Long.toString(sizeBytes), image.toString());
    String device = null;
    String majorMinor;
    try {
      HostCommand.run(
          "mkfs.ext4",
          "-q",
          "-F",
          "-E",
          "lazy_itable_init=0,lazy_journal_init=0",
          image.toString());
      device =
          HostCommand.run("losetup", "--find", "--show", "--direct-io=on", image.toString()).trim();
      majorMinor = majorMinor(device);
      Files.createDirectories(mount);
      HostCommand.run("mount", device, mount.toString());
    } catch (IOException | RuntimeException e) {
      if (device != null) {
        HostCommand.attempt("umount", mount.toString());
        HostCommand.attempt("losetup", "-d", device);
      }
      Files.deleteIfExists(mount);
      Files.deleteIfExists(image);
      throw e;
    }
    EmulatedDisk disk = new EmulatedDisk(diskClass, image, device, majorMinor, mount);
    disk.open(() -> disk.throttle(diskClass.bytesPerSecond, diskClass.iops));
    return disk;
  }

  /** The loop device, e.g. {@code /dev/loop3}. */
  public String device() {
    return device;
  }

  /** The device's {@code major:minor}, as the blkio files name it. */
  public String majorMinor() {
    return majorMinor;
  }

  /** Sets the limits of both directions; 0 leaves a direction's bandwidth or IOPS unlimited. */
  private void throttle(long bytesPerSecond, long iops) throws IOException {
    long[] values = {bytesPerSecond, bytesPerSecond, iops, iops};
    for (int i = 0; i < LIMITS.length; i++) {
      if (values[i] > 0) {
        write(BLKIO.resolve(LIMITS[i]), majorMinor + " " + values[i]);
      }
    }
  }

  /** Removes every limit of this device: writing 0 removes a rule. */
  private void unthrottle() throws IOException {
    for (String limit : LIMITS) {
      write(BLKIO.resolve(limit), majorMinor + " 0");
    }
  }

  /** The limit the root blkio group holds for this device in {@code file}, 0 when none. */
  public long limit(String file) throws IOException {
    for (String line : Files.readAllLines(BLKIO.resolve(file))) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length == 2 && parts[0].equals(majorMinor)) {
        return Long.parseLong(parts[1]);
      }
    }
    return 0;
  }

  /** Drops this disk's file system cache by unmounting and mounting it again. */
  public void dropCache() throws IOException {
    HostCommand.run("sync", "-f", mount.toString());
    HostCommand.run("umount", mount.toString());
    HostCommand.run("mount", device, mount.toString());
  }

  /**
   * Drops the cached pages of every file on this disk while keeping it mounted (for files a process
   * holds open, which {@link #dropCache()} cannot unmount under): each file is synced, then {@code
   * dd iflag=nocache count=0} advises the kernel to drop its pages.
   */
  public void dropFileCaches() throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(mount)) {
      files = walk.filter(Files::isRegularFile).collect(Collectors.toList());
    }
    for (Path file : files) {
      HostCommand.run("sync", file.toString());
      HostCommand.run("dd", "if=" + file, "iflag=nocache", "count=0", "status=none");
    }
  }

  @Override
  protected void release() throws IOException {
    IOException failure = null;
    try {
      unthrottle();
    } catch (IOException e) {
      failure = e;
    }
    HostCommand.Outcome umount = HostCommand.attempt("umount", mount.toString());
    if (!umount.ok()) {
      // A process still has files open there (a killed neighbour not yet reaped): detach lazily.
      HostCommand.attempt("umount", "-l", mount.toString());
    }
    HostCommand.Outcome detach = HostCommand.attempt("losetup", "-d", device);
    if (!detach.ok() && failure == null) {
      failure = new IOException("losetup -d " + device + ": " + detach.output.trim());
    }
    Files.deleteIfExists(mount);
    Files.deleteIfExists(image);
    if (failure != null) {
      throw failure;
    }
  }

  static void write(Path file, String value) throws IOException {
    try {
      Files.write(file, value.getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new IOException("Writing '" + value + "' to " + file + " failed: " + e.getMessage(), e);
    }
  }

  private static String majorMinor(String device) throws IOException {
    String name = Path.of(device).getFileName().toString();
    return Files.readString(Path.of("/sys/class/block", name, "dev")).trim();
  }
}
