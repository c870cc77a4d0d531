package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The shipped recipe switches every bag Pig can route to the factory, and names the factory. */
class PigRecipeTest {

  @Test
  void theRecipeRoutesGroupOrderAndDistinctBagsToTheFactory() {
    Properties recipe = PigRecipe.pigProperties();

    assertThat(recipe.getProperty("pig.cachedbag.type")).isEqualTo("default");
    assertThat(recipe.getProperty("pig.cachedbag.sort.type")).isEqualTo("default");
    assertThat(recipe.getProperty("pig.cachedbag.distinct.type")).isEqualTo("default");
    assertThat(recipe.getProperty("pig.exec.nosecondarykey")).isEqualTo("true");
    for (String opts : new String[] {"mapreduce.map.java.opts", "mapreduce.reduce.java.opts"}) {
      assertThat(recipe.getProperty(opts))
          .contains("-D" + PigRecipe.FACTORY_NAME + "=" + SpongeBagFactory.class.getName())
          .containsPattern(
              "-D" + PigRecipe.FACTORY_JAR.replace(".", "\\.") + "=file:///\\S+\\.jar");
    }
    assertThat(recipe.getProperty("pig.additional.jars.uris"))
        .contains("sponge-core")
        .contains("sponge-pig-databag");
  }

  @Test
  void theSystemPropertiesNameTheFactoryAndAJarUrl() {
    assertThat(PigRecipe.systemProperties(PigRecipe.location()))
        .containsEntry(PigRecipe.FACTORY_NAME, "org.spongefiles.bag.SpongeBagFactory")
        .hasEntrySatisfying(PigRecipe.FACTORY_JAR, url -> assertThat(url).startsWith("file:"));
  }
}
