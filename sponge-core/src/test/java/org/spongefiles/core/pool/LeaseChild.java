package org.spongefiles.core.pool;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A process holding a lease, for {@link LeaseTest}: {@code LeaseChild <lease dir's pool dir>} takes
 * its process lease, prints {@code LEASE <id in hex>}, then answers each line {@code CHECK <id in
 * hex>} with {@code ALIVE <true|false>} until its input ends.
 */
public final class LeaseChild {
  public static void main(String[] args) throws Exception {
    LeaseDirectory leases = LeaseDirectory.beside(Path.of(args[0]));
    System.out.println("LEASE " + Long.toHexString(leases.processLease().id()));
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.startsWith("CHECK ")) {
        long id = Long.parseUnsignedLong(line.substring(6).trim(), 16);
        System.out.println("ALIVE " + leases.isAlive(id));
        System.out.flush();
      }
    }
  }
}
