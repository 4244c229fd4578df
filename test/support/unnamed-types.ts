/**
 * Finds the types an app meets in a package's public signatures but cannot name: types declared
 * in the package's own sources, reached from what its entry exports (parameters and results of
 * functions and methods, constructor options, public properties, and the members of those types
 * in turn), that the entry itself does not export.
 */
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');

/** One program for many entries (building it is the slow part). */
export function publicTypeChecker(entries: readonly string[], foreign: readonly string[] = []) {
  const configPath = join(ROOT, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('tsconfig.json did not parse');
  const program = ts.createProgram(
    entries.map((e) => join(ROOT, e)),
    { ...config.options, noEmit: true },
  );
  const checker = program.getTypeChecker();

  const moduleOf = (entry: string) => {
    const file = program.getSourceFile(join(ROOT, entry));
    const symbol = file && checker.getSymbolAtLocation(file);
    if (!symbol) throw new Error(`not a module in the program: ${entry}`);
    return symbol;
  };
  const resolveAlias = (s: ts.Symbol) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);

  /** What `entry` exposes but does not export; names exported by `companions` (other entries of the same package) count as exported. */
  return function unnamedTypes(entry: string, companions: readonly string[] = []): string[] {
    const own = dirname(join(ROOT, entry));
    const from = (s: ts.Symbol, dirs: readonly string[]) =>
      (s.declarations ?? []).some((d) => dirs.some((dir) => d.getSourceFile().fileName.startsWith(`${dir}/`)));
    const foreignDirs = foreign.map((d) => join(ROOT, d));
    const moduleSymbol = moduleOf(entry);
    const exported = new Set(
      [entry, ...companions].flatMap((e) => checker.getExportsOfModule(moduleOf(e)).map(resolveAlias)),
    );
    const missing = new Map<string, string>();
    const seenTypes = new Set<ts.Type>();
    const seenSymbols = new Set<ts.Symbol>();

    const isOwn = (s: ts.Symbol) => from(s, [own]);
    const isForeign = (s: ts.Symbol) => from(s, foreignDirs);
    // A private or protected member (a private constructor included) is not in the declarations an app sees.
    const isHiddenDeclaration = (d: ts.Declaration | undefined) =>
      d !== undefined &&
      (ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
    const isHidden = (s: ts.Symbol) =>
      s.name.startsWith('#') || s.name.startsWith('__#') || isHiddenDeclaration(s.valueDeclaration);

    /** True when the walk stops at this named type. */
    const named = (s: ts.Symbol, via: string) => {
      const own = isOwn(s);
      if (!own && !isForeign(s)) return false; // the platform's or a third party's: walk on into type arguments
      if (!exported.has(s) && !missing.has(s.name)) missing.set(s.name, via);
      if (!own) return true; // a foreign package's type must be re-exported; its own members are its package's concern
      if (seenSymbols.has(s)) return true;
      seenSymbols.add(s);
      return false;
    };

    const visitSignature = (sig: ts.Signature, via: string) => {
      for (const p of sig.getParameters()) {
        const decl = p.valueDeclaration ?? p.declarations?.[0];
        if (decl) visitType(checker.getTypeOfSymbolAtLocation(p, decl), `${via}(${p.name})`);
      }
      visitType(sig.getReturnType(), `${via}()`);
    };

    const visitMembers = (type: ts.Type, via: string) => {
      for (const prop of checker.getPropertiesOfType(type)) {
        if (isHidden(prop)) continue;
        const decl = prop.valueDeclaration ?? prop.declarations?.[0];
        if (decl) visitType(checker.getTypeOfSymbolAtLocation(prop, decl), `${via}.${prop.name}`);
      }
      for (const sig of type.getCallSignatures()) visitSignature(sig, via);
      for (const sig of type.getConstructSignatures())
        if (!isHiddenDeclaration(sig.getDeclaration())) visitSignature(sig, `new ${via}`);
    };

    function visitType(type: ts.Type, via: string): void {
      if (seenTypes.has(type)) return;
      seenTypes.add(type);
      if (type.aliasSymbol && named(type.aliasSymbol, via)) return;
      for (const arg of type.aliasTypeArguments ?? []) visitType(arg, via);
      if (type.isUnionOrIntersection()) {
        for (const t of type.types) visitType(t, via);
        return;
      }
      const symbol = type.getSymbol();
      if (
        symbol &&
        !type.aliasSymbol &&
        symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)
      ) {
        if (!isOwn(symbol) && !isForeign(symbol)) {
          // Promise<T>, Array<T>, Map<K, V>, …: only their type arguments can be ours.
          for (const arg of checker.getTypeArguments(type as ts.TypeReference) ?? []) visitType(arg, via);
          return;
        }
        if (named(symbol, via)) return;
      }
      if (type.flags & ts.TypeFlags.Object) {
        const ref = type as ts.TypeReference;
        if ((ref.objectFlags ?? 0) & ts.ObjectFlags.Reference)
          for (const arg of checker.getTypeArguments(ref)) visitType(arg, via);
        visitMembers(type, via);
      }
    }

    for (const s of checker.getExportsOfModule(moduleSymbol)) {
      const target = resolveAlias(s);
      if (!isOwn(target)) continue; // a re-export of another package's name: its members are that package's concern
      if (!(target.flags & ts.SymbolFlags.Value)) {
        // An exported type: its members must be nameable too.
        visitType(checker.getDeclaredTypeOfSymbol(target), s.name);
        continue;
      }
      const decl = target.valueDeclaration ?? target.declarations?.[0];
      if (!decl) continue;
      const type = checker.getTypeOfSymbolAtLocation(target, decl);
      visitMembers(type, s.name);
      if (target.flags & ts.SymbolFlags.Class) visitMembers(checker.getDeclaredTypeOfSymbol(target), s.name);
    }
    return [...missing].map(([name, via]) => `${name} (reached through ${via})`).sort();
  };
}
