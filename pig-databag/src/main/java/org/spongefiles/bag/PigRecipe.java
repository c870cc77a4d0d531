package org.spongefiles.bag;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The recipe that routes Pig's bags to {@link SpongeBagFactory}: the system properties each JVM
 * running Pig needs, and the Pig properties shipped as {@value #RESOURCE} (in the distribution's
 * conf/ and in this jar). See docs/pig-databag.md.
 */
public final class PigRecipe {
  /** The recipe's Pig properties, beside this class in the jar. */
  public static final String RESOURCE = "sponge-pig.properties";

  /** System property naming the bag factory class (read by {@code BagFactory.getInstance()}). */
  public static final String FACTORY_NAME = "pig.data.bag.factory.name";

  /** System property giving the URL of a jar with the factory; required with the name. */
  public static final String FACTORY_JAR = "pig.data.bag.factory.jar";

  private PigRecipe() {}

  /** The Pig properties of the recipe, as shipped. */
  public static Properties pigProperties() {
    Properties properties = new Properties();
    try (InputStream in = PigRecipe.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing beside " + PigRecipe.class);
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + RESOURCE, e);
    }
    return properties;
  }

  /** The system properties that make Pig use the factory, loaded from {@code jar}. */
  public static Map<String, String> systemProperties(URL jar) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(FACTORY_NAME, SpongeBagFactory.class.getName());
    properties.put(FACTORY_JAR, jar.toString());
    return properties;
  }

  /** Where this module's classes were loaded from (its jar, or a class directory in a build). */
  public static URL location() {
    return SpongeBagFactory.class.getProtectionDomain().getCodeSource().getLocation();
  }
}
