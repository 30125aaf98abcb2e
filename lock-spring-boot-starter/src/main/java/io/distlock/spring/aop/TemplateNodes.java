package io.distlock.spring.aop;

import java.util.ArrayList;
import java.util.List;

import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.OpPlus;
import org.springframework.expression.spel.ast.Projection;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.Selection;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * What the start-up checks of a {@link ResourceTemplate} read in the SpEL syntax trees of its {@code #{…}} parts:
 * every node, whether a part reads the target bean, and which variables a part renders as they are.
 */
final class TemplateNodes {

    private TemplateNodes() {
    }

    /**
     * Whether a node reads the target bean. Method arguments and indexes are evaluated against the root object
     * again; the elements of projections and selections are not the root.
     */
    static boolean refersToTarget(SpelNode node, boolean rootContext) {
        if (node instanceof CompoundExpression) {
            SpelNode first = node.getChild(0);
            if (refersToTarget(first, rootContext)) {
                return true;
            }
            boolean afterRoot = isRoot(first, rootContext);
            for (int i = 1; i < node.getChildCount(); i++) {
                SpelNode step = node.getChild(i);
                if (i == 1 && afterRoot && isTargetStep(step)) {
                    return true;
                }
                boolean seesRoot = !(step instanceof Projection || step instanceof Selection);
                for (int c = 0; c < step.getChildCount(); c++) {
                    if (refersToTarget(step.getChild(c), seesRoot)) {
                        return true;
                    }
                }
            }
            return false;
        }
        if (rootContext && isTargetStep(node)) {
            return true;
        }
        for (int c = 0; c < node.getChildCount(); c++) {
            if (refersToTarget(node.getChild(c), rootContext)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isRoot(SpelNode node, boolean rootContext) {
        if (!(node instanceof VariableReference)) {
            return false;
        }
        String name = node.toStringAST();
        return name.equals("#root") || (rootContext && name.equals("#this"));
    }

    private static boolean isTargetStep(SpelNode node) {
        return (node instanceof PropertyOrFieldReference property && property.getName().equals("target"))
                || (node instanceof MethodReference reference && reference.getName().equals("getTarget")
                        && reference.getChildCount() == 0);
    }

    private static boolean isArgsStep(SpelNode node) {
        return (node instanceof PropertyOrFieldReference property && property.getName().equals("args"))
                || (node instanceof MethodReference reference && reference.getName().equals("getArgs")
                        && reference.getChildCount() == 0);
    }

    static void collectRendered(String expression, SpelNode node, List<ResourceTemplate.RenderedVariable> found) {
        if (node instanceof VariableReference) {
            String name = node.toStringAST().substring(1);
            found.add(new ResourceTemplate.RenderedVariable(expression, name.equals("this") ? "root" : name));
        }
        else if (isArgsStep(node) || (node instanceof CompoundExpression && node.getChildCount() == 2
                && isRoot(node.getChild(0), true) && isArgsStep(node.getChild(1)))) {
            found.add(new ResourceTemplate.RenderedVariable(expression, "root.args"));
        }
        else if (node instanceof OpPlus) {
            for (int c = 0; c < node.getChildCount(); c++) {
                collectRendered(expression, node.getChild(c), found);
            }
        }
    }

    static List<SpelNode> nodes(List<Expression> parts) {
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
}
