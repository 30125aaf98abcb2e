package io.distlock.spring.properties;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata the starter ships matches its properties classes: every property a
 * {@code @ConfigurationProperties} class of the starter binds is declared with a description, no
 * {@code distributed-lock.*} key is declared that nothing binds, and the keys bound outside those classes are
 * declared too. The start-up check of unknown keys relies on this.
 */
class ConfigurationMetadataTests {

    @Test
    void everyBoundPropertyIsDeclaredWithADescription() throws IOException {
        Map<String, Map<String, Object>> declared = declared();
        Set<String> bound = boundProperties();
        assertThat(bound).contains("distributed-lock.table-name", "distributed-lock.watchdog.threads",
                "distributed-lock.jdbc.initialize-schema", "distributed-lock.http.max-ttl",
                "distributed-lock.cleanup.retention", "distributed-lock.strict-properties");
        assertThat(declared.keySet()).containsAll(bound);
        for (String name : bound) {
            assertThat((String) declared.get(name).get("description")).as("description of %s", name).isNotBlank();
        }
    }

    @Test
    void everyDeclaredDistributedLockKeyIsBound() throws IOException {
        Set<String> declaredKeys = new TreeSet<>(declared().keySet());
        declaredKeys.removeIf(name -> !name.startsWith("distributed-lock."));
        assertThat(boundProperties()).containsAll(declaredKeys);
    }

    @Test
    void theHealthIndicatorSwitchIsDeclared() throws IOException {
        Map<String, Object> health = declared().get("management.health.distributedlock.enabled");
        assertThat(health).isNotNull().containsEntry("type", "java.lang.Boolean").containsEntry("defaultValue", true);
        assertThat((String) health.get("description")).startsWith("Whether");
    }

    private static Map<String, Map<String, Object>> declared() throws IOException {
        try (InputStream in = ConfigurationMetadataTests.class
            .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            List<Map<String, Object>> properties = JsonPath.read(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    "$.properties[*]");
            Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
            properties.forEach(property -> byName.put((String) property.get("name"), property));
            return byName;
        }
    }

    /** The keys every {@code @ConfigurationProperties} class of the starter binds, found by their setters. */
    private static Set<String> boundProperties() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        Set<String> names = new TreeSet<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("io.distlock.spring")) {
            Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), null);
            ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
            collect(annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix(), type, names);
        }
        return names;
    }

    private static void collect(String prefix, Class<?> type, Set<String> names) {
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
            Class<?> valueType = property.getPropertyType();
            String name = prefix + "." + kebab(property.getName());
            if (property.getWriteMethod() != null && isValue(valueType)) {
                names.add(name);
            }
            else if (property.getReadMethod() != null && valueType != null && valueType.getEnclosingClass() == type) {
                collect(name, valueType, names);
            }
        }
    }

    private static boolean isValue(Class<?> type) {
        return BeanUtils.isSimpleValueType(type) || type == Duration.class || type.isEnum()
                || List.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type);
    }

    private static String kebab(String name) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (Character.isUpperCase(c) && !part.isEmpty()) {
                parts.add(part.toString());
                part.setLength(0);
            }
            part.append(Character.toLowerCase(c));
        }
        parts.add(part.toString());
        return String.join("-", parts);
    }
}
