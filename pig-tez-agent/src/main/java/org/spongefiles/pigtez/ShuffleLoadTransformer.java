package org.spongefiles.pigtez;

import java.lang.instrument.ClassFileTransformer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.ProtectionDomain;

/**
 * Patches {@code POShuffleTezLoad} when its class file is one of {@link
 * PigShuffleLoad#KNOWN_SHA256}; any other build of it is refused: it loads, but fails its task at
 * start ({@code attachInputs}) with a message naming the jar, the hash found and the build the
 * agent knows. Every other class passes untouched.
 */
final class ShuffleLoadTransformer implements ClassFileTransformer {

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain domain,
      byte[] classfile) {
    if (!PigShuffleLoad.INTERNAL_NAME.equals(className)) {
      return null;
    }
    return rewrite(classfile, location(domain));
  }

  /** The patched class, or the refused one, for the class file of POShuffleTezLoad. */
  static byte[] rewrite(byte[] classfile, String location) {
    String sha256 = sha256(classfile);
    if (PigShuffleLoad.KNOWN_SHA256.contains(sha256)) {
      return ShuffleLoadPatch.patch(classfile);
    }
    return ShuffleLoadPatch.refuse(classfile, refusal(sha256, location));
  }

  static String refusal(String sha256, String location) {
    return "sponge-pig-tez-agent: "
        + PigShuffleLoad.INTERNAL_NAME.replace('/', '.')
        + " from "
        + location
        + " has SHA-256 "
        + sha256
        + ", not the class of "
        + PigShuffleLoad.PIG
        + " (SHA-256 "
        + String.join(" or ", PigShuffleLoad.KNOWN_SHA256)
        + ") that this agent patches. Run Pig 0.18.0, or remove -javaagent:...sponge-pig-tez-agent"
        + " from the task JVM options (tez.task.launch.cmd-opts, or the mapreduce.*.java.opts Pig"
        + " copies when that is unset) and from PIG_OPTS; the GROUP, COGROUP and join bags of"
        + " Tez tasks then spill to java.io.tmpdir as stock Pig's do";
  }

  static String sha256(byte[] bytes) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      StringBuilder hex = new StringBuilder(digest.length * 2);
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static String location(ProtectionDomain domain) {
    if (domain == null || domain.getCodeSource() == null) {
      return "an unknown location";
    }
    return String.valueOf(domain.getCodeSource().getLocation());
  }
}
