package io.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.distlock.core.LockArguments;
import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * A {@link io.distlock.spring.DistributedLock#resource()} parsed once: literal text, or a SpEL template whose
 * {@code #{…}} parts are evaluated against the call's arguments on every call. Every part must produce a value: a
 * {@code null} part would silently lock a different, shorter name.
 */
final class ResourceTemplate {

    private static final SpelExpressionParser parser = new SpelExpressionParser();

    private static final TemplateParserContext templateContext = new TemplateParserContext();

    private final String text;

    private final List<Expression> parts;

    private ResourceTemplate(String text, List<Expression> parts) {
        this.text = text;
        this.parts = parts;
    }

    /**
     * Parses a template whose {@code ${…}} placeholders are already resolved.
     *
     * @param text the template
     * @return the parsed template
     * @throws ParseException when a {@code #{…}} part is not valid SpEL
     */
    static ResourceTemplate parse(String text) {
        if (!text.contains(templateContext.getExpressionPrefix())) {
            return new ResourceTemplate(text, List.of(new LiteralExpression(text)));
        }
        Expression expression = parser.parseExpression(text, templateContext);
        List<Expression> parts = expression instanceof CompositeStringExpression composite
                ? List.of(composite.getExpressions()) : List.of(expression);
        return new ResourceTemplate(text, parts);
    }

    /**
     * The template text, after placeholder resolution.
     *
     * @return the text
     */
    String text() {
        return text;
    }

    /**
     * Whether the template is plain text, the same on every call.
     *
     * @return {@code true} without {@code #{…}} parts
     */
    boolean isLiteral() {
        return parts.size() == 1 && parts.get(0) instanceof LiteralExpression;
    }

    /**
     * The variables the template reads ({@code #month}, {@code #p0}, {@code #root}), without the {@code #}.
     *
     * @return the names in order of appearance
     */
    Set<String> variables() {
        Set<String> names = new LinkedHashSet<>();
        for (SpelNode node : nodes()) {
            if (node instanceof VariableReference) {
                names.add(node.toStringAST().substring(1));
            }
        }
        return names;
    }

    /**
     * The beans the template refers to with {@code @name}.
     *
     * @return the bean names in order of appearance
     */
    Set<String> beanNames() {
        Set<String> names = new LinkedHashSet<>();
        for (SpelNode node : nodes()) {
            if (node instanceof BeanReference reference) {
                names.add(reference.getName());
            }
        }
        return names;
    }

    /**
     * Evaluates the template for one call.
     *
     * @param root the {@code #root} object
     * @param args the call's arguments
     * @param parameterNames how parameter names are found
     * @param beanResolver resolves {@code @name} references
     * @return the resource name
     * @throws IllegalArgumentException when a part evaluates to {@code null} or the result is not a valid resource
     *     name (blank, too long, control characters)
     */
    String evaluate(LockExpressionRoot root, @Nullable Object[] args, ParameterNameDiscoverer parameterNames,
            BeanResolver beanResolver) {
        if (isLiteral()) {
            return text;
        }
        Method method = root.getMethod();
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, method, args, parameterNames);
        context.setBeanResolver(beanResolver);
        StringBuilder name = new StringBuilder();
        for (Expression part : parts) {
            // Any value becomes text through toString(): YearMonth, LocalDate, enums, ids need no converter.
            Object value = part.getValue(context);
            if (value == null) {
                throw new IllegalArgumentException("@DistributedLock resource '" + text + "' of "
                        + LockedMethod.describe(method, root.getTargetClass()) + ": #{" + part.getExpressionString()
                        + "} evaluated to null; the method was not run");
            }
            name.append(value);
        }
        try {
            return LockArguments.requireResource(name.toString());
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("@DistributedLock resource '" + text + "' of "
                    + LockedMethod.describe(method, root.getTargetClass()) + " evaluated to an invalid name: "
                    + ex.getMessage() + "; the method was not run", ex);
        }
    }

    private List<SpelNode> nodes() {
        List<SpelNode> nodes = new ArrayList<>();
        for (Expression part : parts) {
            if (part instanceof SpelExpression spel) {
                collect(spel.getAST(), nodes);
            }
        }
        return nodes;
    }

    private static void collect(SpelNode node, List<SpelNode> nodes) {
        nodes.add(node);
        for (int i = 0; i < node.getChildCount(); i++) {
            collect(node.getChild(i), nodes);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
