export interface SourceLocation {
  line: number
  column: number
}

/**
 * Where an export is declared in a module, for error messages. ts-morph is loaded only here, when a
 * build is already failing, so it costs nothing otherwise.
 */
export async function locateExport(file: string, exportName: string): Promise<SourceLocation | undefined> {
  try {
    const { Project } = await import('ts-morph')
    const project = new Project({ useInMemoryFileSystem: false, skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: true } })
    const source = project.addSourceFileAtPath(file)
    const declaration = source.getExportedDeclarations().get(exportName)?.[0]
    if (!declaration)
      return undefined
    const { line, column } = source.getLineAndColumnAtPos(declaration.getStart())
    return { line, column }
  }
  catch {
    return undefined
  }
}
