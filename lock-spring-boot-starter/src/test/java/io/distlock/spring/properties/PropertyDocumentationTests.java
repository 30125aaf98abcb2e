package io.distlock.spring.properties;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The property tables of the README and of the pages under {@code docs/} agree with the configuration metadata: every
 * {@code distributed-lock.*} property (and the health indicator's switch) is in a table, every key in a table is a
 * property, and where the metadata has a default, the table's default column starts with it.
 */
class PropertyDocumentationTests {

    /** A table row: {@code | `key` | default | description |}. */
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z0-9.\\-]+)`\\s*\\|([^|]*)\\|", Pattern.MULTILINE);

    private static final Pattern CODE = Pattern.compile("^`([^`]*)`");

    @Test
    void everyPropertyIsInATableWithItsDefaultAndEveryDocumentedKeyExists() throws IOException {
        Map<String, Map<String, Object>> declared = declared();
        Map<String, String> documented = documented();
        assertThat(documented).as("property tables found").isNotEmpty();
        assertThat(new TreeSet<>(documented.keySet())).as("documented keys that no property declares")
            .isSubsetOf(declared.keySet());
        assertThat(new TreeSet<>(declared.keySet())).as("properties missing from the README's and docs' tables")
            .isSubsetOf(documented.keySet());
        List<String> wrongDefaults = new ArrayList<>();
        declared.forEach((name, property) -> {
            Object value = property.get("defaultValue");
            if (value == null || value instanceof List) {
                return;
            }
            Matcher code = CODE.matcher(documented.get(name).strip());
            String shown = code.find() ? code.group(1) : "";
            String expected = String.valueOf(value);
            boolean agrees = shown.equals(expected) || (shown.endsWith("…")
                    && expected.startsWith(shown.substring(0, shown.length() - 1)));
            if (!agrees) {
                wrongDefaults.add(name + ": documented '" + shown + "', declared '" + expected + "'");
            }
        });
        assertThat(wrongDefaults).as("defaults that differ from the metadata").isEmpty();
    }

    private static Map<String, Map<String, Object>> declared() throws IOException {
        try (InputStream in = PropertyDocumentationTests.class
            .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            List<Map<String, Object>> properties = JsonPath.read(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    "$.properties[*]");
            Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
            properties.stream().filter(p -> documentedKey((String) p.get("name")))
                .forEach(p -> byName.put((String) p.get("name"), p));
            return byName;
        }
    }

    /** Key and default column of every table row of README.md and docs/*.md that names a property. */
    private static Map<String, String> documented() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        Map<String, String> rows = new LinkedHashMap<>();
        for (Path page : pages) {
            Matcher row = ROW.matcher(Files.readString(page));
            while (row.find()) {
                if (documentedKey(row.group(1))) {
                    rows.put(row.group(1), row.group(2));
                }
            }
        }
        return rows;
    }

    private static boolean documentedKey(String name) {
        return name.startsWith("distributed-lock.") || name.equals("management.health.distributedlock.enabled");
    }
}
