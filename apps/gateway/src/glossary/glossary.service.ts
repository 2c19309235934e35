import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { z } from 'zod';
import {
  GlossaryCreateBody,
  GlossaryRememberBody,
  GlossaryTerm,
  GlossaryUpdateBody,
  termKey,
  type GlossaryEntry,
  type GlossaryImportResult,
  type WordMeaning,
} from '@nl2p/envelope';
import { GlossaryStore, type SessionStore } from '@nl2p/session-store';
import { SESSION_STORE } from '@nl2p/workflow-runtime';
import { CatalogService } from '../streams/catalog.service';
import { meaningProblems } from './check-meaning';
import { GlossaryFileError, readGlossaryFile, writeGlossaryFile } from './glossary-file';

/** A body checked against its schema; a bad one is a 400 listing every problem. */
function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
  throw new BadRequestException(issues);
}

/** The tenant's glossary over HTTP: every operation sees only the caller's tenant. */
@Injectable()
export class GlossaryService {
  constructor(
    private readonly store: GlossaryStore,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    private readonly catalog: CatalogService,
  ) {}

  /**
   * Refuses meanings the data cannot hold (an unknown table or column, a text compared with a
   * number) with a 400 naming each, so a term never fails later inside someone's turn.
   */
  private async checkMeanings(terms: readonly { term: string; means: WordMeaning }[], where: string): Promise<void> {
    const tables = await this.catalog.allTables();
    const problems = terms.flatMap((t) => meaningProblems(t.means, tables).map((p) => `${where}'${t.term}': ${p}`));
    if (problems.length) throw new BadRequestException(problems.join('; '));
  }

  list(tenant: string): Promise<GlossaryEntry[]> {
    return this.store.list(tenant);
  }

  async create(tenant: string, body: unknown): Promise<GlossaryEntry> {
    const b = parseBody(GlossaryCreateBody, body);
    await this.checkMeanings([b], '');
    const entry = await this.store.create(tenant, { term: b.term, means: b.means, by: b.created_by ?? tenant });
    if (!entry) throw new ConflictException(`the glossary has '${b.term}' already; PUT /v1/glossary/{term} changes it`);
    return entry;
  }

  async update(tenant: string, term: string, body: unknown): Promise<GlossaryEntry> {
    const { means } = parseBody(GlossaryUpdateBody, body);
    const key = parseBody(GlossaryTerm, term);
    await this.checkMeanings([{ term: key, means }], '');
    const entry = await this.store.update(tenant, key, means);
    if (!entry) throw new NotFoundException(`the glossary has no term '${term}'`);
    return entry;
  }

  async remove(tenant: string, term: string): Promise<void> {
    if (!(await this.store.delete(tenant, parseBody(GlossaryTerm, term)))) {
      throw new NotFoundException(`the glossary has no term '${term}'`);
    }
  }

  /**
   * Keeps a word explained in one of the tenant's sessions for every session: the "yes" to the
   * offer a turn makes when it read a definition. A known term gets the session's meaning.
   */
  async remember(tenant: string, body: unknown): Promise<GlossaryEntry> {
    const b = parseBody(GlossaryRememberBody, body);
    const session = await this.sessions.get(b.session_id);
    if (!session || session.tenant !== tenant) throw new NotFoundException(`session ${b.session_id} not found`);
    const explained = session.resolutions.find((r) => termKey(r.word) === termKey(b.term));
    if (!explained) throw new NotFoundException(`session ${b.session_id} has no explanation of '${b.term}'`);
    const by = `session ${b.session_id}`;
    const entry =
      (await this.store.create(tenant, { term: explained.word, means: explained.means, by })) ??
      (await this.store.update(tenant, explained.word, explained.means));
    if (!entry) throw new ConflictException(`'${b.term}' was removed while it was being remembered; try again`);
    return entry;
  }

  exportFile(tenant: string): Promise<string> {
    return this.store.list(tenant).then(writeGlossaryFile);
  }

  /** Stores every term of a YAML file (all or none); a bad file is a 400 naming its line. */
  async importFile(tenant: string, text: unknown, by: string): Promise<GlossaryImportResult> {
    if (typeof text !== 'string' || !text.trim()) {
      throw new BadRequestException('send the glossary file as the body, with Content-Type: application/yaml');
    }
    let terms: ReturnType<typeof readGlossaryFile>;
    try {
      terms = readGlossaryFile(text);
    } catch (err) {
      if (err instanceof GlossaryFileError) throw new BadRequestException(`glossary file, ${err.message}`);
      throw err;
    }
    await this.checkMeanings(terms, 'glossary file, term ');
    const counts = await this.store.importAll(
      tenant,
      terms.map((t) => ({ ...t, by })),
    );
    return { ...counts, entries: await this.store.list(tenant) };
  }
}
