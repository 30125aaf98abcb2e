package io.distlock.spring.properties;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.json.BasicJsonParser;
import org.springframework.boot.json.JsonParser;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The {@code distributed-lock.*} keys that the configuration metadata on the class path declares: the metadata the
 * configuration processor generates for every properties class of the starter and of any other module, merged with
 * the modules' additional metadata. Read at start-up, so keys added by other modules are known without a list here.
 *
 * <p>Read with Spring Boot's {@link BasicJsonParser} whatever JSON library the application has, so that the checks
 * behave the same with Jackson, with Gson and with neither. That parser hands back the entries of a list after the
 * first as text when whitespace precedes them, as in every generated metadata file; such an entry is parsed again.
 */
final class LockPropertyMetadata {

    /** The prefix of every key checked. */
    static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("distributed-lock");

    /** A key of the starter's own, whose absence means that no metadata was found. */
    static final ConfigurationPropertyName OWN_KEY = ConfigurationPropertyName.of("distributed-lock.enabled");

    static final List<String> LOCATIONS = List.of("classpath*:META-INF/spring-configuration-metadata.json",
            "classpath*:META-INF/additional-spring-configuration-metadata.json");

    private static final String DURATION = "java.time.Duration";

    /** Keys by name, with their type (possibly {@code null}). */
    private final Map<ConfigurationPropertyName, @Nullable String> keys;

    LockPropertyMetadata(Map<ConfigurationPropertyName, @Nullable String> keys) {
        this.keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    }

    /**
     * Reads the metadata of every jar and directory on the class path.
     *
     * @param classLoader the class loader to search
     * @return the {@code distributed-lock.*} keys found
     */
    static LockPropertyMetadata load(@Nullable ClassLoader classLoader) {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(classLoader);
        JsonParser parser = new BasicJsonParser();
        Map<ConfigurationPropertyName, @Nullable String> keys = new LinkedHashMap<>();
        for (String location : LOCATIONS) {
            try {
                for (Resource resource : resolver.getResources(location)) {
                    String json = resource.getContentAsString(StandardCharsets.UTF_8);
                    if (json.contains("\"" + PREFIX + ".")) {
                        read(parser, parser.parseMap(json), keys);
                    }
                }
            }
            catch (IOException ex) {
                throw new UncheckedIOException("Cannot read the configuration metadata at " + location, ex);
            }
        }
        return new LockPropertyMetadata(keys);
    }

    private static void read(JsonParser parser, Map<String, Object> metadata,
            Map<ConfigurationPropertyName, @Nullable String> keys) {
        if (!(metadata.get("properties") instanceof List<?> properties)) {
            return;
        }
        for (Object property : properties) {
            Object parsed = property instanceof String text && text.strip().startsWith("{")
                    ? parser.parseMap(text.strip()) : property;
            if (parsed instanceof Map<?, ?> entry && entry.get("name") instanceof String name) {
                ConfigurationPropertyName key = ConfigurationPropertyName.ofIfValid(name);
                if (key != null && PREFIX.isAncestorOf(key)) {
                    String type = entry.get("type") instanceof String declared ? declared : null;
                    if (type != null || !keys.containsKey(key)) {
                        keys.put(key, type);
                    }
                }
            }
        }
    }

    /**
     * Whether metadata was found at all: without it every key would look unknown.
     *
     * @return {@code true} when the starter's own keys are declared
     */
    boolean isAvailable() {
        return keys.containsKey(OWN_KEY);
    }

    /**
     * Whether a key is declared, or lies inside a declared map, list or array property.
     *
     * @param name a key under {@code distributed-lock}, in any relaxed form
     * @return {@code true} when some properties class binds it
     */
    boolean isKnown(ConfigurationPropertyName name) {
        for (Map.Entry<ConfigurationPropertyName, @Nullable String> key : keys.entrySet()) {
            if (key.getKey().equals(name) || (isContainer(key.getValue()) && key.getKey().isAncestorOf(name))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The declared keys whose type is {@link java.time.Duration}.
     *
     * @return the keys, in the order the metadata lists them
     */
    List<ConfigurationPropertyName> durations() {
        return keys.entrySet().stream().filter(key -> DURATION.equals(key.getValue())).map(Map.Entry::getKey)
            .sorted().toList();
    }

    /**
     * The declared key an unknown key most likely meant: one with the same last part in another group
     * ({@code distributed-lock.renew-ratio} for {@code distributed-lock.watchdog.renew-ratio}), else the one a few
     * edits away ({@code distributed-lock.tabel-name} for {@code distributed-lock.table-name}).
     *
     * @param unknown a key that is not declared
     * @return the nearest key, or {@code null} when none is close
     */
    @Nullable ConfigurationPropertyName nearest(ConfigurationPropertyName unknown) {
        String leaf = plain(unknown.getLastElement(Form.UNIFORM));
        List<ConfigurationPropertyName> sameLeaf = keys.keySet().stream()
            .filter(key -> plain(key.getLastElement(Form.UNIFORM)).equals(leaf))
            .sorted(Comparator.comparingInt(ConfigurationPropertyName::getNumberOfElements))
            .toList();
        if (!sameLeaf.isEmpty()) {
            return sameLeaf.get(0);
        }
        String text = relative(unknown);
        ConfigurationPropertyName nearest = null;
        int best = Integer.MAX_VALUE;
        for (ConfigurationPropertyName key : keys.keySet().stream().sorted().toList()) {
            int distance = distance(text, relative(key));
            if (distance < best) {
                best = distance;
                nearest = key;
            }
        }
        return nearest != null && best <= Math.max(2, text.length() / 3) ? nearest : null;
    }

    /**
     * The declared keys directly inside a group.
     *
     * @param group a group such as {@code distributed-lock.watchdog}
     * @return their last parts, such as {@code threads} and {@code renew-ratio}; empty when the group has none
     */
    List<String> keysOf(ConfigurationPropertyName group) {
        List<String> names = new ArrayList<>();
        for (ConfigurationPropertyName key : keys.keySet().stream().sorted().toList()) {
            if (group.isParentOf(key)) {
                names.add(key.getLastElement(Form.DASHED));
            }
        }
        return names;
    }

    private static boolean isContainer(@Nullable String type) {
        return type != null && (type.startsWith("java.util.Map<") || type.startsWith("java.util.List<")
                || type.startsWith("java.util.Set<") || type.startsWith("java.util.Collection<")
                || type.endsWith("[]"));
    }

    /** The key after {@code distributed-lock.} without dashes: {@code tableName} and {@code table-name} agree. */
    private static String relative(ConfigurationPropertyName name) {
        StringBuilder text = new StringBuilder();
        for (int i = PREFIX.getNumberOfElements(); i < name.getNumberOfElements(); i++) {
            if (!text.isEmpty()) {
                text.append('.');
            }
            text.append(plain(name.getElement(i, Form.UNIFORM)));
        }
        return text.toString();
    }

    private static String plain(String element) {
        return element.replace("-", "").toLowerCase(Locale.ROOT);
    }

    /** Edits (insertions, deletions, substitutions, swaps of neighbours) that turn one text into the other. */
    static int distance(String from, String to) {
        int[][] d = new int[from.length() + 1][to.length() + 1];
        for (int i = 0; i <= from.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= to.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= from.length(); i++) {
            for (int j = 1; j <= to.length(); j++) {
                int cost = from.charAt(i - 1) == to.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                boolean swapped = i > 1 && j > 1 && from.charAt(i - 1) == to.charAt(j - 2)
                        && from.charAt(i - 2) == to.charAt(j - 1);
                if (swapped) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[from.length()][to.length()];
    }

    @Override
    public String toString() {
        return "LockPropertyMetadata" + Objects.toString(keys.keySet());
    }
}
