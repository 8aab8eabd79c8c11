-- A real editor against `sglang-lint server` (issue 24), driven by
-- tests/test_neovim.py: Neovim's built-in LSP client (only APIs Neovim 0.7 has)
-- opens the decode of a prefill/decode pair, waits for SGL001, applies the
-- server's code actions, edits the buffer, and writes what it saw at each step
-- to a JSON report. The Python test asserts on the report; this script only
-- observes. Every wait is bounded; the script always ends with `qa!`.
--
-- Its settings come as JSON in $SGLANG_LINT_NVIM_CONFIG:
--   cmd         the server's command line (a list)
--   root        the workspace folder (the pair's directory)
--   decode      the decode script's absolute path
--   report      where to write the report
--   timeout_ms  the bound of each wait
--   agree       {from = "--tp-size 4", to = "--tp-size 8"}: the edit that makes
--               the decode agree with the prefill

local config = vim.json.decode(os.getenv('SGLANG_LINT_NVIM_CONFIG'))
local report = { steps = {}, nvim_version = vim.version() }

local function write_report()
  local file = assert(io.open(config.report, 'w'))
  file:write(vim.json.encode(report))
  file:close()
end

local function buffer_lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

local function codes_of(diagnostics)
  local codes = {}
  for _, diagnostic in ipairs(diagnostics or {}) do
    table.insert(codes, diagnostic.code)
  end
  table.sort(codes)
  return codes
end

local function main()
  vim.lsp.set_log_level('debug')
  report.log_path = vim.lsp.get_log_path()

  local bufnr -- the decode's buffer, once opened
  -- Every publication for the decode, raw (UTF-16 ranges, document version),
  -- before Neovim's own handler turns it into vim.diagnostic entries.
  local publications = {}
  local function on_publish(err, result, ctx, handler_config)
    if result and bufnr and vim.uri_to_bufnr(result.uri) == bufnr then
      table.insert(publications, { version = result.version, diagnostics = result.diagnostics or {} })
    end
    return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, handler_config)
  end

  local client_id = vim.lsp.start_client({
    name = 'sglang-lint',
    cmd = config.cmd,
    root_dir = config.root,
    offset_encoding = 'utf-16',
    flags = { debounce_text_changes = 50 },
    handlers = { ['textDocument/publishDiagnostics'] = on_publish },
    on_exit = function(code, signal)
      report.server_exit = { code = code, signal = signal }
    end,
  })
  report.client_started = client_id ~= nil
  if not client_id then
    error('vim.lsp.start_client failed for ' .. vim.inspect(config.cmd))
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(config.decode))
  bufnr = vim.api.nvim_get_current_buf()
  report.attached = vim.lsp.buf_attach_client(bufnr, client_id)
  local original = buffer_lines(bufnr)
  report.original_lines = original

  -- Waits until the server has published for the buffer's current version
  -- (Neovim's document version is the buffer's changedtick) and `wanted` holds
  -- of that publication; records the step.
  local function settle(name, wanted)
    local version
    local seen
    local ok = vim.wait(config.timeout_ms, function()
      -- Read each time: the version is set when didOpen is sent, which waits
      -- for the server's initialize answer.
      version = vim.lsp.util.buf_versions[bufnr]
      local latest = publications[#publications]
      if latest and version ~= nil and latest.version == version then
        seen = latest
        return wanted(latest.diagnostics)
      end
      return false
    end, 20)
    local step = {
      name = name,
      ok = ok,
      version = version,
      published_version = seen and seen.version or (publications[#publications] or {}).version,
      codes = seen and codes_of(seen.diagnostics) or nil,
      diagnostics = seen and seen.diagnostics or nil,
      -- What the editor shows (vim.diagnostic: byte columns, 0-based lines).
      shown = {},
      lines = buffer_lines(bufnr),
      publications = #publications,
    }
    for _, shown in ipairs(vim.diagnostic.get(bufnr)) do
      table.insert(step.shown, {
        code = shown.code,
        source = shown.source,
        severity = shown.severity,
        lnum = shown.lnum,
        col = shown.col,
        end_lnum = shown.end_lnum,
        end_col = shown.end_col,
      })
    end
    table.insert(report.steps, step)
    if not ok then
      error(string.format('step %q: no matching publication for version %s within %d ms', name, tostring(version), config.timeout_ms))
    end
    return step
  end

  local function has_sgl001(diagnostics)
    for _, diagnostic in ipairs(diagnostics) do
      if diagnostic.code == 'SGL001' then
        return diagnostic
      end
    end
    return nil
  end
  local function without_sgl001(diagnostics)
    return has_sgl001(diagnostics) == nil
  end

  -- Asks for the code actions at the SGL001 diagnostic (as an editor does on a
  -- diagnostic: its range, and it in the context).
  local function code_actions(name, diagnostic)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = diagnostic.range,
      context = { diagnostics = { diagnostic } },
    }
    local results, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, config.timeout_ms)
    if not results then
      error(string.format('step %q: textDocument/codeAction failed: %s', name, tostring(err)))
    end
    local actions = {}
    for _, response in pairs(results) do
      if response.error then
        error(string.format('step %q: textDocument/codeAction error: %s', name, vim.inspect(response.error)))
      end
      for _, action in ipairs(response.result or {}) do
        table.insert(actions, action)
      end
    end
    local step = { name = name, actions = {} }
    for _, action in ipairs(actions) do
      table.insert(step.actions, { title = action.title, kind = action.kind, isPreferred = action.isPreferred, edit = action.edit })
    end
    table.insert(report.steps, step)
    return actions, step
  end

  local function apply(name, action)
    local before = buffer_lines(bufnr)
    vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
    table.insert(report.steps, { name = name, title = action.title, edit = action.edit, before = before, after = buffer_lines(bufnr) })
  end

  local function is_noqa(action)
    return action.title:find('# noqa: SGL001', 1, true) ~= nil
  end
  local function is_sgl001_fix(action)
    if is_noqa(action) or not action.edit or action.kind ~= 'quickfix' then
      return false
    end
    for _, diagnostic in ipairs(action.diagnostics or {}) do
      if diagnostic.code == 'SGL001' then
        return true
      end
    end
    return false
  end
  local function pick(actions, test)
    for _, action in ipairs(actions) do
      if test(action) and action.edit then
        return action
      end
    end
    return nil
  end

  -- 1. The decode is opened: SGL001 appears.
  local opened = settle('open', has_sgl001)
  local finding = has_sgl001(opened.diagnostics)

  -- 2. A code action is offered at it; apply the SGL001 fix (else the noqa one).
  local actions = code_actions('actions', finding)
  local chosen = pick(actions, is_sgl001_fix) or pick(actions, is_noqa)
  if not chosen then
    error('no SGL001 fix and no `# noqa: SGL001` action among the code actions')
  end
  apply('apply', chosen)
  settle('after_apply', without_sgl001)

  -- 3. Back to the disagreeing text (the whole buffer): SGL001 again.
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, original)
  settle('restored', has_sgl001)

  -- 4. Edit the decode's --tp-size to agree with the prefill (one line, as
  --    typing would): SGL001 is gone.
  local agreed
  for index, line in ipairs(original) do
    local at = line:find(config.agree.from, 1, true)
    if at then
      agreed = line:sub(1, at - 1) .. config.agree.to .. line:sub(at + #config.agree.from)
      vim.api.nvim_buf_set_lines(bufnr, index - 1, index, false, { agreed })
      break
    end
  end
  if not agreed then
    error('no ' .. config.agree.from .. ' in the decode')
  end
  settle('agreed', without_sgl001)

  -- 5. Disagree again, and silence it with the `# noqa: SGL001` action.
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, original)
  local again = settle('restored_again', has_sgl001)
  local noqa_actions = code_actions('actions_again', has_sgl001(again.diagnostics))
  local noqa = pick(noqa_actions, is_noqa)
  if not noqa then
    error('no `# noqa: SGL001` action among the code actions')
  end
  apply('apply_noqa', noqa)
  settle('after_noqa', without_sgl001)

  report.done = true
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function()
    return report.server_exit ~= nil
  end, 20)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  report.error = tostring(err)
end
local written, write_error = pcall(write_report)
if not written then
  io.stderr:write('lsp_check.lua: cannot write the report: ' .. tostring(write_error) .. '\n')
end
vim.cmd('qa!')
