package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The shipped recipe switches every bag Pig can route to the factory, names the factory and the
 * versioned jars of the distribution's lib/, and leaves Pig's secondary-key optimization on.
 */
class PigRecipeTest {

  @Test
  void theRecipeRoutesGroupOrderAndDistinctBagsToTheFactory() {
    Properties recipe = PigRecipe.pigProperties();

    assertThat(recipe.getProperty("pig.cachedbag.type")).isEqualTo("default");
    assertThat(recipe.getProperty("pig.cachedbag.sort.type")).isEqualTo("default");
    assertThat(recipe.getProperty("pig.cachedbag.distinct.type")).isEqualTo("default");
    // Pig's secondary-key optimization stays on: group bags keep the shuffle's order.
    assertThat(recipe.getProperty("pig.exec.nosecondarykey")).isNull();
    for (String opts : new String[] {"mapreduce.map.java.opts", "mapreduce.reduce.java.opts"}) {
      assertThat(recipe.getProperty(opts))
          .contains("-D" + PigRecipe.FACTORY_NAME + "=" + SpongeBagFactory.class.getName())
          .containsPattern(
              "-D"
                  + PigRecipe.FACTORY_JAR.replace(".", "\\.")
                  + "=file:///\\S+/sponge-pig-databag-\\d[^/\\s$]*\\.jar");
    }
    // The jars as the distribution's lib/ names them: the build fills in the version.
    assertThat(recipe.getProperty("pig.additional.jars.uris"))
        .matches(
            "file:///\\S+/sponge-core-\\d[^/,$]*\\.jar,"
                + "file:///\\S+/sponge-pig-databag-\\d[^/,$]*\\.jar");
  }

  @Test
  void theSystemPropertiesNameTheFactoryAndAJarUrl() {
    assertThat(PigRecipe.systemProperties(PigRecipe.location()))
        .containsEntry(PigRecipe.FACTORY_NAME, "org.spongefiles.bag.SpongeBagFactory")
        .hasEntrySatisfying(PigRecipe.FACTORY_JAR, url -> assertThat(url).startsWith("file:"));
  }
}
