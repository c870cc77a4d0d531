package org.spongefiles.pigtez;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry point ({@code -javaagent:sponge-pig-tez-agent-<version>.jar}, the jar's {@code
 * Premain-Class}): registers the transformer of {@code POShuffleTezLoad} before Pig loads it. It
 * takes no arguments and changes no other class.
 */
public final class TezBagAgent {
  private TezBagAgent() {}

  public static void premain(String arguments, Instrumentation instrumentation) {
    if (arguments != null && !arguments.isEmpty()) {
      throw new IllegalArgumentException(
          "sponge-pig-tez-agent takes no arguments, got '" + arguments + "'");
    }
    instrumentation.addTransformer(new ShuffleLoadTransformer());
  }
}
